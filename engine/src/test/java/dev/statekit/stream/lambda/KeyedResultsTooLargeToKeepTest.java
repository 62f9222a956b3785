package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keyed results a key's item cannot keep beside its state until they are delivered: only what does
 * not fit is set aside (on a shard) or handed back (on a queue), measured as the item is written
 * (after what is delivered is forgotten, in UTF-8 bytes, whatever the state's size), a record's
 * many small results under one stand-in, and a kept stand-in goes to the place after a deployment
 * adds an output. In-memory adapters.
 */
class KeyedResultsTooLargeToKeepTest {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final TypeName EGRESS = TypeName.of("test", "keyed-out");
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());
  private static final StateSpec<ValueState<String>> BLOB =
      StateSpec.value("blob", Serdes.string());

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore store = new InMemoryBatchStore();

  /** A sink with no size limit of its own (a Kinesis stream takes 1 MiB, a table 400 KB). */
  private final CollectingEgressSink output = new CollectingEgressSink();

  private final CollectingEgressSink place = new CollectingEgressSink();

  private BatchPipeline pipeline(String name, Pipeline p, EgressSink refused) {
    BatchPipeline.Builder builder =
        BatchPipeline.builder(name, p)
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1));
    if (refused != null) {
      builder.refusedOutputsTo(refused);
    }
    BatchPipeline pipeline = builder.build();
    pipeline.registerSplits(List.of(SHARD));
    return pipeline;
  }

  private static SourceBatch shard(long firstSequence, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    long sequence = firstSequence;
    for (String record : records) {
      batch.add(Long.toString(sequence++), 0, record.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private List<String> standIns() {
    return place.records().stream()
        .map(r -> RefusedOutput.TYPE.deserialize(r.value()))
        .map(r -> r.id() + " parts=" + r.parts() + " reason=" + r.reason())
        .toList();
  }

  /**
   * A key with a 300 KB result in each of two consecutive batches: each fits the key's item on its
   * own (the first is delivered and checkpointed before the second), and both are delivered whole,
   * with a place or without. The second was replaced by a value-less stand-in: the room was
   * measured with the first batch's delivered outbox entry still in the book.
   */
  @Test
  void aResultThatFitsIsNotReplacedByAStandInBecauseOfADeliveredEarlierBatch() {
    String one = "x".repeat(300_000);
    String two = "z".repeat(300_000);

    CollectingEgressSink withoutPlace = new CollectingEgressSink();
    BatchPipeline plain = pipeline("no-place", RefusedOutputsContract.counted(withoutPlace), null);
    assertTrue(plain.process(shard(1000, "k," + one)).succeeded());
    assertTrue(plain.process(shard(1001, "k," + two)).succeeded());
    assertEquals(
        List.of(300_004, 300_004),
        withoutPlace.texts().stream().map(String::length).toList(),
        "without a place both results are kept and delivered whole");

    BatchPipeline pipeline = pipeline("with-place", RefusedOutputsContract.counted(output), place);
    assertTrue(pipeline.process(shard(1000, "k," + one)).succeeded());
    BatchResult second = pipeline.process(shard(1001, "k," + two));
    assertTrue(second.succeeded(), second.toString());
    assertEquals(List.of(), standIns(), "nothing needed setting aside");
    assertEquals(List.of(300_004, 300_004), output.texts().stream().map(String::length).toList());
  }

  /**
   * A key whose state takes 330 KB (under the item's 400 KB) and a 95 KB result: the item cannot
   * keep the result until delivered, so with a place it is set aside and the batch goes on. A gate
   * on the batch's outputs (past 100 KB) skipped it, and the key's write failed on every try.
   */
  @Test
  void aResultUnder100KbThatTheItemCannotKeepBesideALargeStateIsSetAside() {
    Pipeline p = blobs();
    BatchPipeline pipeline = pipeline("large-state", p, place);
    assertTrue(pipeline.process(shard(1000, "k,state:" + "s".repeat(330_000))).succeeded());
    BatchResult second;
    try {
      second = pipeline.process(shard(1001, "k," + "o".repeat(95_000)));
    } catch (RuntimeException e) {
      throw new AssertionError("the batch fails (on every try): " + e.getMessage(), e);
    }
    assertTrue(second.succeeded(), second.toString());
  }

  /**
   * A key whose text is not ASCII (100 CJK characters, 300 bytes in the item) and a record that
   * emits 120 results of 4,000 bytes (about 500 KB): they are set aside until the item as written
   * fits. An estimate in characters (StoredOutput.size) fell 200 bytes an output short, and the
   * key's write failed on every try although the pipeline had a place.
   */
  @Test
  void aNonAsciiKeysManyResultsAreSetAsideUntilTheItemReallyFits() {
    Pipeline p = fanOut();
    BatchPipeline pipeline = pipeline("cjk", p, place);
    String key = "\u952e".repeat(100);
    BatchResult result;
    try {
      result = pipeline.process(shard(1000, key + ",120"));
    } catch (RuntimeException e) {
      throw new AssertionError("the batch fails (on every try): " + e.getMessage(), e);
    }
    assertTrue(result.succeeded(), result.toString());
    assertTrue(!place.records().isEmpty());
  }

  /** A queue key with a 300 KB result in two consecutive batches: each fits on its own. */
  @Test
  void aQueueKeysSecondLargeResultThatFitsIsNotHandedBack() {
    BatchPipeline pipeline = pipeline("queue-two", RefusedOutputsContract.counted(output), place);
    BatchResult one =
        pipeline.process(
            SourceBatch.unordered("orders-queue")
                .add("m1", 0, ("k," + "x".repeat(300_000)).getBytes(StandardCharsets.UTF_8))
                .build());
    BatchResult two =
        pipeline.process(
            SourceBatch.unordered("orders-queue")
                .add("m2", 0, ("k," + "z".repeat(300_000)).getBytes(StandardCharsets.UTF_8))
                .build());
    BatchPipeline fresh = pipeline("queue-two", RefusedOutputsContract.counted(output), place);
    BatchResult three =
        fresh.process(
            SourceBatch.unordered("orders-queue")
                .add("m3", 0, ("k," + "y".repeat(300_000)).getBytes(StandardCharsets.UTF_8))
                .build());
    assertEquals(List.of(), one.failedOffsets(), one.toString());
    assertEquals(List.of(), two.failedOffsets(), two.toString());
    assertEquals(List.of(), three.failedOffsets(), three.toString());
    assertEquals(3, output.records().size());
  }

  /**
   * The same on a queue: a message of a non-ASCII key with 95 results of 4,000 bytes (under 400 KB
   * counted in characters, past it as written) goes back alone; the key's write failed the whole
   * batch, an unrelated message of another key with it, on every try.
   */
  @Test
  void aQueuesNonAsciiKeyMessageTooLargeToKeepFailsAloneNotTheBatch() {
    Pipeline p = fanOut();
    BatchPipeline pipeline = pipeline("cjk-queue", p, place);
    String key = "\u952e".repeat(100);
    SourceBatch batch =
        SourceBatch.unordered("orders-queue")
            .add("m1", 0, "other,1".getBytes(StandardCharsets.UTF_8))
            .add("m2", 0, (key + ",95").getBytes(StandardCharsets.UTF_8))
            .build();
    BatchResult result;
    try {
      result = pipeline.process(batch);
    } catch (RuntimeException e) {
      throw new AssertionError("the whole batch fails (on every try): " + e.getMessage(), e);
    }
    assertTrue(!result.failedOffsets().contains("m1"), result.toString());
  }

  /**
   * A queue key holding 330 KB of state and a message with a 95 KB result: the message fails alone
   * (its redrive policy keeps it). Past the gate on outputs, the key's write failed the whole
   * batch, an unrelated message of another key with it, on every try.
   */
  @Test
  void aQueuesMessageUnder100KbThatTheItemCannotKeepBesideALargeStateFailsAlone() {
    Pipeline p = blobs();
    BatchPipeline pipeline = pipeline("large-state-queue", p, place);
    BatchResult first =
        pipeline.process(
            SourceBatch.unordered("orders-queue")
                .add("m1", 0, ("k,state:" + "s".repeat(330_000)).getBytes(StandardCharsets.UTF_8))
                .build());
    assertEquals(List.of(), first.failedOffsets(), first.toString());
    BatchResult second;
    try {
      second =
          pipeline.process(
              SourceBatch.unordered("orders-queue")
                  .add("m2", 0, "other,a".getBytes(StandardCharsets.UTF_8))
                  .add("m3", 0, ("k," + "o".repeat(95_000)).getBytes(StandardCharsets.UTF_8))
                  .build());
    } catch (RuntimeException e) {
      throw new AssertionError("the whole batch fails (on every try): " + e.getMessage(), e);
    }
    assertEquals(List.of("m3"), second.failedOffsets(), second.toString());
  }

  /**
   * A stand-in kept in a key's outbox, the invocation dying before delivery; the next deployment
   * adds a dead-letter output to the plan. The place was the last route, so the new output took its
   * index and the retry delivered the stand-in to the dead letters, nothing to the place.
   */
  @Test
  void aKeptStandInStillGoesToThePlaceAfterADeploymentAddsAnOutput() {
    CollectingEgressSink deadLetters = new CollectingEgressSink();
    SourceBatch batch = shard(1000, "k1,a", "k2," + "y".repeat(450_000));
    BatchPipeline first =
        BatchPipeline.builder("redeploy", RefusedOutputsContract.counted(output))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(place)
            .faultHook(HotKeys.deliveriesFail(1))
            .build();
    first.registerSplits(List.of(SHARD));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalStateException.class, () -> first.process(batch));

    Pipeline withDeadLetters =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .<String[]>process(
                "split",
                (record, out) -> out.collect(record.value().split(",", 2)),
                dev.statekit.stream.FailurePolicy.deadLetter(
                    EgressOutput.to(
                        deadLetters,
                        TypeName.of("test", "dead"),
                        Types.simple(
                            TypeName.of("test", "dead-letter"),
                            (dev.statekit.stream.DeadLetter<String> d) ->
                                d.record().value().getBytes(StandardCharsets.UTF_8),
                            b -> {
                              throw new UnsupportedOperationException();
                            }))))
            .keyBy(parts -> parts[0])
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> seen = context.state(SEEN);
                  long count = seen.value() == null ? 1 : seen.value() + 1;
                  seen.update(count);
                  out.collect(record.value()[0] + ":" + count + ":" + record.value()[1]);
                },
                SEEN)
            .to(EgressOutput.to(output, RefusedOutputsContract.EGRESS, Types.stringType()));
    BatchPipeline second = pipeline("redeploy", withDeadLetters, place);
    BatchResult retried = second.process(batch);
    assertTrue(retried.succeeded(), retried.toString());
    assertEquals(List.of(), deadLetters.records(), "k1's kept result went to its own output");
    assertEquals(List.of("k1:1:a"), output.texts());
    assertTrue(
        java.util.stream.Stream.concat(output.records().stream(), deadLetters.records().stream())
            .noneMatch(r -> r.egress().equals(RefusedOutput.EGRESS)),
        "the stand-in went to no output of the plan");
    assertEquals(1, place.records().size(), "the stand-in reached the place");
  }

  /** A crash at the stand-in key's write, then Lambda's retry: set aside once, one id. */
  @Test
  void aCrashAtTheStandInKeysWriteThenARetry() {
    java.util.concurrent.atomic.AtomicBoolean crash =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    BatchPipeline pipeline =
        BatchPipeline.builder("crash-write", RefusedOutputsContract.counted(output))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(place)
            .faultHook(
                (step, detail) -> {
                  if (step == BatchFaultHook.Step.KEY_WRITE
                      && String.valueOf(detail).contains("k2")
                      && crash.getAndSet(false)) {
                    throw new IllegalStateException("died at k2's write");
                  }
                })
            .build();
    pipeline.registerSplits(List.of(SHARD));
    SourceBatch batch = shard(1000, "k1,a", "k2," + "y".repeat(450_000), "k1,b");
    org.junit.jupiter.api.Assertions.assertThrows(
        RuntimeException.class, () -> pipeline.process(batch));
    BatchResult retried = pipeline.process(batch);
    assertTrue(retried.succeeded(), retried.toString());
    assertEquals(List.of("k1:1:a", "k1:2:b"), output.texts());
    assertEquals(1, place.records().size(), standIns().toString());
    assertEquals(1, place.deliveries());
  }

  /**
   * FIFO: a message its key cannot keep goes back with its group's later messages, another key's;
   * another group goes on; handed over again alone the later ones apply in order.
   */
  @Test
  void aFifoGroupGoesBackBehindAMessageItsKeyCannotKeep() {
    BatchPipeline pipeline = pipeline("fifo", RefusedOutputsContract.counted(output), place);
    SourceBatch batch =
        SourceBatch.unordered("orders.fifo")
            .add(
                "m1",
                0,
                ("k1," + "z".repeat(450_000)).getBytes(StandardCharsets.UTF_8),
                java.util.Map.of(SourceBatch.ORDER_GROUP, "g"))
            .add(
                "m2",
                0,
                "k2,after".getBytes(StandardCharsets.UTF_8),
                java.util.Map.of(SourceBatch.ORDER_GROUP, "g"))
            .add(
                "m3",
                0,
                "k3,other".getBytes(StandardCharsets.UTF_8),
                java.util.Map.of(SourceBatch.ORDER_GROUP, "h"))
            .build();
    BatchResult result = pipeline.process(batch);
    assertEquals(List.of("m1", "m2"), result.failedOffsets(), result.toString());
    assertEquals(List.of("k3:1:other"), output.texts());
  }

  /**
   * A queue: m1's large result kept pending (the invocation died before delivery); m1 handed over
   * again with a new large m2 of the same key: m1 is a repeat (delivered again), m2 goes back; m2
   * alone later fits.
   */
  @Test
  void aQueueRepeatWithAFreshLargeMessageOfItsKey() {
    BatchPipeline pipeline =
        BatchPipeline.builder("queue-repeat", RefusedOutputsContract.counted(output))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(place)
            .faultHook(HotKeys.deliveriesFail(1))
            .build();
    byte[] m1 = ("k," + "x".repeat(300_000)).getBytes(StandardCharsets.UTF_8);
    byte[] m2 = ("k," + "z".repeat(300_000)).getBytes(StandardCharsets.UTF_8);
    org.junit.jupiter.api.Assertions.assertThrows(
        RuntimeException.class,
        () -> pipeline.process(SourceBatch.unordered("q").add("m1", 0, m1).build()));
    BatchResult again =
        pipeline.process(SourceBatch.unordered("q").add("m1", 0, m1).add("m2", 0, m2).build());
    assertEquals(List.of("m2"), again.failedOffsets(), again.toString());
    BatchResult later = pipeline.process(SourceBatch.unordered("q").add("m2", 0, m2).build());
    assertEquals(List.of(), later.failedOffsets(), later.toString());
    assertEquals(
        List.of("k:1:x", "k:2:z"), output.texts().stream().map(t -> t.substring(0, 5)).toList());
    assertEquals(List.of(), standIns());
  }

  /**
   * Two 300 KB results of a shard key, refused by the queue (256 KiB), in consecutive batches on
   * two instances: both are set aside whole, in parts. The second came as a value-less stand-in.
   */
  @Test
  void theSecondOfTwoLargeResultsOfAShardKeyKeepsItsValueWhenSetAside() {
    dev.statekit.bus.InMemoryMessageBus queue =
        new dev.statekit.bus.InMemoryMessageBus(clock, Duration.ofSeconds(30));
    EgressSink sqsLike =
        new dev.statekit.egress.FunctionAddressSink(
            dev.statekit.function.Address.of(TypeName.of("test", "out"), "all"), queue);
    BatchPipeline first = pipeline("paths", RefusedOutputsContract.counted(sqsLike), place);
    assertTrue(first.process(shard(1000, "k2," + "x".repeat(300_000))).succeeded());
    BatchPipeline second = pipeline("paths", RefusedOutputsContract.counted(sqsLike), place);
    assertTrue(second.process(shard(1001, "k2," + "z".repeat(300_000))).succeeded());
    List<String> kept =
        place.records().stream()
            .map(r -> RefusedOutput.TYPE.deserialize(r.value()))
            .filter(r -> r.parts() > 0)
            .map(RefusedOutput::id)
            .distinct()
            .toList();
    assertEquals(
        2, kept.size(), "results set aside with their value: " + kept + " / " + standIns());
  }

  /**
   * One record that fans out into 1,000 results of 450 bytes (about 500 KB): one stand-in takes the
   * place of them all. A stand-in per result was no smaller than the result, so none was set aside,
   * and the key's write failed on every try although the pipeline had a place.
   */
  @Test
  void aRecordThatFansOutIntoManySmallResultsDoesNotStopTheShard() {
    Pipeline p =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
            .keyBy(parts -> parts[0])
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> seen = context.state(SEEN);
                  seen.update(seen.value() == null ? 1 : seen.value() + 1);
                  int n = Integer.parseInt(record.value()[1]);
                  for (int i = 0; i < n; i++) {
                    out.collect(String.format("%04d:", i) + "e".repeat(445));
                  }
                },
                SEEN)
            .to(EgressOutput.to(output, EGRESS, Types.stringType()));
    BatchPipeline pipeline = pipeline("fan-out", p, place);
    BatchResult result;
    try {
      result = pipeline.process(shard(1000, "k,1000", "other,1"));
    } catch (RuntimeException e) {
      throw new AssertionError("the batch fails (on every try): " + e.getMessage(), e);
    }
    assertTrue(result.succeeded(), result.toString());
  }

  /** "k,state:..." stores the text as k's state (output "stored"); any other text is the output. */
  private Pipeline blobs() {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
        .keyBy(parts -> parts[0])
        .<String>process(
            (record, context, out) -> {
              ValueState<String> blob = context.state(BLOB);
              if (record.value()[1].startsWith("state:")) {
                blob.update(record.value()[1]);
                out.collect("stored");
              } else {
                out.collect(record.value()[1]);
              }
            },
            BLOB)
        .to(EgressOutput.to(output, EGRESS, Types.stringType()));
  }

  /** "k,n": n results of about 4,000 bytes each for key k. */
  private Pipeline fanOut() {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
        .keyBy(parts -> parts[0])
        .<String>process(
            (record, context, out) -> {
              ValueState<Long> seen = context.state(SEEN);
              seen.update(seen.value() == null ? 1 : seen.value() + 1);
              int n = Integer.parseInt(record.value()[1]);
              for (int i = 0; i < n; i++) {
                out.collect(i + ":" + "v".repeat(4_000));
              }
            },
            SEEN)
        .to(EgressOutput.to(output, EGRESS, Types.stringType()));
  }
}
