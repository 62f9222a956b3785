package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hot key's share of its item ({@code ItemLimit.BATCH_OUTPUT_BYTES}) in the schedules that broke
 * the first version of it: one record whose parts alone pass the share (it must be applied whole,
 * or it is handed back for ever), a write that conflicts after the share was filled (the key runs
 * again on its fresh item and must apply what the batch chose, not throw), a queue key fed by new
 * execution environments (the pending messages of earlier batches are confirmed by their receipts,
 * not kept until the retention), and retries after failed deliveries (what the key keeps of them
 * counts in its share, so its item never passes the limit).
 */
class HotKeyShareTest {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final BigInteger FIRST =
      new BigInteger("49590338271490256608559692538361571095921575989136588898");

  private final CollectingEgressSink results = new CollectingEgressSink();
  private final ManualClock clock = new ManualClock(1_000_000);

  /**
   * One message is an order of many lines, each a keyed record of its customer: a running count.
   */
  private BatchPipeline lines(InMemoryBatchStore store) {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .flatMap(
                (byte[] bytes, dev.statekit.stream.Collector<String> out) -> {
                  String[] parts = new String(bytes, StandardCharsets.UTF_8).split(",");
                  int lines = Integer.parseInt(parts[1]);
                  for (int i = 0; i < lines; i++) {
                    out.collect(parts[0]);
                  }
                })
            .map(customer -> "1")
            .keyBy(one -> "hot")
            .reduce((a, b) -> Long.toString(Long.parseLong(a) + Long.parseLong(b)), Serdes.string())
            .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("lines", counts)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  /**
   * A Kinesis record of 800 lines of one customer: its outputs alone pass the key's 100 KB share of
   * a batch, while state and outputs fit in the item many times over (about 170 KB). The key is
   * "full" at the record's ~500th line, so the record is handed back; it is the first of the next
   * batch and is handed back again, for ever: the shard never moved. A key's first record of a
   * batch is now applied whole.
   */
  @Test
  void aShardRecordWhosePartsPassTheKeysShareIsAppliedWhole() {
    BatchPipeline pipeline = lines(new InMemoryBatchStore(clock));
    int records = 3;
    int from = 0;
    List<String> answers = new ArrayList<>();
    for (int attempt = 0; attempt < 10 && from < records; attempt++) {
      SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
      for (int i = from; i < records; i++) {
        batch.add(
            FIRST.add(BigInteger.valueOf(2L * i)).toString(),
            clock.millis(),
            ("c," + (i == 1 ? 1200 : 1)).getBytes(StandardCharsets.UTF_8));
      }
      BatchResult result = pipeline.process(batch.build());
      if (result.succeeded()) {
        from = records;
      } else {
        answers.add(result.failure().orElse(""));
        from =
            new BigInteger(result.failedOffsets().get(0))
                .subtract(FIRST)
                .shiftRight(1)
                .intValueExact();
      }
      clock.advance(Duration.ofSeconds(1));
    }
    assertTrue(
        from == records,
        "the shard is stuck at record "
            + from
            + " after 10 batches; answers: "
            + answers.size()
            + ", last: "
            + (answers.isEmpty() ? "-" : answers.get(answers.size() - 1)));
  }

  /** The same on a queue: the message came back for ever (then to the dead-letter queue). */
  @Test
  void aQueueMessageWhosePartsPassTheKeysShareIsAppliedWhole() {
    BatchPipeline pipeline = lines(new InMemoryBatchStore(clock));
    List<String> waiting = new ArrayList<>(List.of("m-small-1", "m-big", "m-small-2"));
    int batches = 0;
    String last = "-";
    while (!waiting.isEmpty() && batches < 10) {
      SourceBatch.Builder batch = SourceBatch.unordered("orders-queue");
      for (String id : waiting) {
        batch.add(
            id,
            clock.millis(),
            ("c," + (id.equals("m-big") ? 3000 : 1)).getBytes(StandardCharsets.UTF_8));
      }
      BatchResult result = pipeline.process(batch.build());
      batches++;
      last = result.failure().orElse(last);
      waiting = new ArrayList<>(result.failedOffsets());
      clock.advance(Duration.ofSeconds(30));
    }
    assertTrue(
        waiting.isEmpty(), waiting + " still handed back after " + batches + " batches: " + last);
  }

  private BatchPipeline sums(InMemoryBatchStore store, BatchFaultHook hook) {
    Pipeline sums =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(",")[1])
            .keyBy(value -> "hot")
            .reduce((a, b) -> Long.toString(Long.parseLong(a) + Long.parseLong(b)), Serdes.string())
            .to(EgressOutput.to(results, TypeName.of("test", "sums"), Types.stringType()));
    return BatchPipeline.builder("sums", sums)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(hook)
        .build();
  }

  /**
   * A hot key fed by two shards (keyed by a field, not by the partition key). Shard 0's batch makes
   * the key take its full 100 KB share (it hands the rest back: fine). While it runs, shard 1's
   * batch (another invocation) adds a large amount to the key's sum (each time one more digit), so
   * shard 0's write conflicts. The conflict re-run applies the same records to the fresh sum: the
   * running sums have more digits, the share fills a few records earlier, and resolveConflicts
   * takes the "full" answer for a failed record: IllegalStateException "A record failed when its
   * key was processed again after a concurrent write", the whole batch thrown. Nothing failed. As
   * long as the other shard keeps writing the key during shard 0's batches, shard 0 never gets
   * through (Lambda retries it whole until MaximumRetryAttempts, then gives it up).
   */
  @Test
  void aConflictAfterTheShareFilledRunsTheKeyAgainAsTheBatchChose() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    BatchPipeline other = sums(store, BatchFaultHook.NONE);
    String shard1 = "orders/shardId-000000000001";
    int[] seq1 = {0};
    BatchPipeline pipeline =
        sums(
            store,
            (step, detail) -> {
              if (step == BatchFaultHook.Step.LOADED && detail.equals(SHARD)) {
                // Another invocation, on shard 1, writes the key meanwhile.
                other.process(
                    SourceBatch.ordered(shard1)
                        .add(
                            FIRST.add(BigInteger.valueOf(2L * seq1[0]++)).toString(),
                            clock.millis(),
                            ("hot," + BigInteger.TEN.pow(8 + seq1[0]))
                                .getBytes(StandardCharsets.UTF_8))
                        .build());
              }
            });
    int records = 1_500;
    int from = 0;
    List<String> thrown = new ArrayList<>();
    for (int attempt = 0; attempt < 10 && from < records; attempt++) {
      SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
      for (int i = from; i < records; i++) {
        batch.add(
            FIRST.add(BigInteger.valueOf(2L * i)).toString(),
            clock.millis(),
            "hot,1".getBytes(StandardCharsets.UTF_8));
      }
      try {
        BatchResult result = pipeline.process(batch.build());
        from =
            result.succeeded()
                ? records
                : new BigInteger(result.failedOffsets().get(0))
                    .subtract(FIRST)
                    .shiftRight(1)
                    .intValueExact();
      } catch (RuntimeException e) {
        thrown.add(e.getMessage());
      }
      clock.advance(Duration.ofSeconds(1));
    }
    assertTrue(
        thrown.isEmpty() && from == records,
        thrown.size()
            + " of shard 0's batches threw (it reached record "
            + from
            + "): "
            + (thrown.isEmpty() ? "-" : thrown.get(0)));
  }

  /**
   * HotKeyBatchOutboxTest's queue case, with each batch on a new execution environment (Lambda
   * scales an SQS mapping out to several instances; any may be cold). The key's share of 100 KB per
   * batch assumes it keeps only "what it still keeps of its previous batch" beside it; but a
   * pending entry is dropped only when its receipt is known, and a cold instance reads only the
   * receipts of its own batch's messages (and of pending ids of keys in its cache: none). So every
   * cold instance's batch adds its 100 KB to the pending entries of the batches before it, and the
   * fourth passes 400 KB: refused before anything is written, on every retry on a cold instance.
   */
  @Test
  void aHotQueueKeyOnNewInstancesConfirmsItsPendingMessages() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    int messages = 10_000;
    List<String> waiting = new ArrayList<>();
    for (int i = 0; i < messages; i++) {
      waiting.add(String.format("%08x-0000-4000-8000-%012d", i, i));
    }
    int applied = 0;
    int batches = 0;
    List<String> refused = new ArrayList<>();
    while (!waiting.isEmpty() && batches < 30) {
      BatchPipeline cold = counts(store);
      SourceBatch.Builder batch = SourceBatch.unordered("orders-queue");
      for (String id : waiting) {
        batch.add(id, clock.millis(), id.getBytes(StandardCharsets.UTF_8));
      }
      batches++;
      try {
        BatchResult result = cold.process(batch.build());
        applied += result.applied();
        waiting = new ArrayList<>(result.failedOffsets());
      } catch (RuntimeException e) {
        refused.add(e.getMessage());
      }
      clock.advance(Duration.ofSeconds(30));
    }
    assertTrue(
        refused.isEmpty() && waiting.isEmpty(),
        refused.size()
            + " of "
            + batches
            + " batches refused, "
            + applied
            + " of "
            + messages
            + " messages applied; first refusal: "
            + (refused.isEmpty() ? "-" : refused.get(0)));
  }

  private BatchPipeline counts(InMemoryBatchStore store) {
    return HotKeys.counts(store, clock, results, BatchFaultHook.NONE);
  }

  /**
   * The same hot queue key on one warm instance, with the sink down for the first three attempts
   * (or the invocation timing out in delivery): each attempt writes the key (its messages pending,
   * with their outputs) and fails before the receipts. The retry finds those messages pending
   * (repeats, not counted in the key's share) and applies another 100 KB of new ones beside them.
   * After three such attempts the key keeps 300 KB of pending entries that nothing can confirm (no
   * receipt was ever written), and every later attempt, with the sink back, is refused at the item
   * limit: the queue is stuck until the redrive policy dead-letters the messages, applied ones too.
   */
  @Test
  void aHotQueueKeyRetriedAfterFailedDeliveriesGetsThrough() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    BatchPipeline pipeline = HotKeys.counts(store, clock, results, HotKeys.deliveriesFail(3));
    int messages = 10_000;
    List<String> waiting = new ArrayList<>();
    for (int i = 0; i < messages; i++) {
      waiting.add(String.format("%08x-0000-4000-8000-%012d", i, i));
    }
    int batches = 0;
    List<String> errors = new ArrayList<>();
    while (!waiting.isEmpty() && batches < 30) {
      SourceBatch.Builder batch = SourceBatch.unordered("orders-queue");
      for (String id : waiting) {
        batch.add(id, clock.millis(), id.getBytes(StandardCharsets.UTF_8));
      }
      batches++;
      try {
        waiting = new ArrayList<>(pipeline.process(batch.build()).failedOffsets());
      } catch (RuntimeException e) {
        errors.add(e.getMessage()); // the whole batch comes again
      }
      clock.advance(Duration.ofSeconds(30));
    }
    assertTrue(
        waiting.isEmpty(),
        waiting.size()
            + " messages still waiting after "
            + batches
            + " batches ("
            + errors.size()
            + " failed whole); last error: "
            + (errors.isEmpty() ? "-" : errors.get(errors.size() - 1)));
  }

  /**
   * The shard's version: a hot partition key, the sink down for three attempts. Each attempt writes
   * the key (mark and outbox) and fails before its checkpoint; the retry skips what the key applied
   * (its outbox goes out again, not counted in the share) and applies 100 KB more, kept until a
   * checkpoint passes it. After three the key keeps 300 KB of outbox and every attempt is refused
   * at the item limit with the sink back: the shard never moves again (Lambda gives the batch up,
   * and its replay is refused the same way).
   */
  @Test
  void aHotShardKeyRetriedAfterFailedDeliveriesGetsThrough() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    BatchPipeline pipeline = HotKeys.counts(store, clock, results, HotKeys.deliveriesFail(3));
    int records = 5_000;
    int from = 0;
    List<String> errors = new ArrayList<>();
    for (int attempt = 0; attempt < 30 && from < records; attempt++) {
      SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
      for (int i = from; i < records; i++) {
        batch.add(
            FIRST.add(BigInteger.valueOf(2L * i)).toString(),
            clock.millis(),
            ("hot," + i).getBytes(StandardCharsets.UTF_8));
      }
      try {
        BatchResult result = pipeline.process(batch.build());
        from =
            result.succeeded()
                ? records
                : new BigInteger(result.failedOffsets().get(0))
                    .subtract(FIRST)
                    .shiftRight(1)
                    .intValueExact();
      } catch (RuntimeException e) {
        errors.add(e.getMessage());
      }
      clock.advance(Duration.ofSeconds(1));
    }
    assertTrue(
        from == records,
        "the shard is stuck at record "
            + from
            + " after 30 batches ("
            + errors.size()
            + " failed whole); last error: "
            + (errors.isEmpty() ? "-" : errors.get(errors.size() - 1)));
  }
}
