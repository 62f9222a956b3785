package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.testing.ManualClock;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A running count of one key over one Kinesis batch: every record of the batch has the same
 * partition key (a hot key, all on one shard), the state is one number, but the key's outbox keeps
 * an entry per record until the checkpoint, so the key's item grows with the batch and passes
 * DynamoDB's 400 KB limit. The batch is refused before anything is written, and Lambda hands over
 * the same batch again and again: nothing of the shard is ever applied again (invariant 3, nothing
 * stuck). With Kinesis sequence numbers an entry takes about 210 bytes, so about 1,900 records of
 * one key in a batch (Lambda hands over up to 10,000) are enough. A batch of 3,000 records of one
 * key must get through, at once or by answering a first failed record past its start.
 */
class HotKeyBatchOutboxTest {
  private static final int RECORDS = 3_000;
  private static final String SHARD = "orders/shardId-000000000000";
  private static final BigInteger FIRST =
      new BigInteger("49590338271490256608559692538361571095921575989136588898");

  private final CollectingEgressSink results = new CollectingEgressSink();
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline counts() {
    return HotKeys.counts(new InMemoryBatchStore(clock), clock, results, BatchFaultHook.NONE);
  }

  @Test
  void aBatchOfOneHotKeyIsAppliedWhateverItsSize() {
    BatchPipeline pipeline = counts();

    // Lambda: a batch that fails whole comes again whole; one that answers a failed record comes
    // again from it.
    int from = 0;
    int applied = 0;
    List<String> failures = new ArrayList<>();
    for (int attempt = 0; attempt < 10 && from < RECORDS; attempt++) {
      SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
      for (int i = from; i < RECORDS; i++) {
        batch.add(
            FIRST.add(BigInteger.valueOf(2L * i)).toString(),
            clock.millis(),
            ("hot," + i).getBytes(StandardCharsets.UTF_8));
      }
      BatchResult result;
      try {
        result = pipeline.process(batch.build());
      } catch (RuntimeException e) {
        failures.add(e.getMessage());
        clock.advance(Duration.ofSeconds(1));
        continue;
      }
      applied += result.applied();
      if (result.succeeded()) {
        from = RECORDS;
      } else {
        String resume = result.failedOffsets().get(0);
        from = new BigInteger(resume).subtract(FIRST).shiftRight(1).intValueExact();
      }
    }

    assertTrue(
        from == RECORDS,
        "one key's batch of "
            + RECORDS
            + " records never got through; every attempt failed: "
            + (failures.isEmpty() ? "-" : failures.get(0)));
    assertEquals(RECORDS, applied);
    assertTrue(results.texts().contains(Integer.toString(RECORDS)), "the last running count");
  }

  /**
   * The same on a queue: 10,000 messages of one key in one batch. Those the key has no room for
   * come back as failed items (SQS returns them after their visibility timeout) and are applied in
   * a later batch, every message once: the last count is the number of messages.
   */
  @Test
  void aQueueBatchOfOneHotKeyIsAppliedOnceEachWhateverItsSize() {
    BatchPipeline pipeline = counts();
    int messages = 10_000;
    List<String> waiting = new ArrayList<>();
    for (int i = 0; i < messages; i++) {
      waiting.add(String.format("%08x-0000-4000-8000-%012d", i, i));
    }
    int applied = 0;
    int batches = 0;
    while (!waiting.isEmpty() && batches < 20) {
      SourceBatch.Builder batch = SourceBatch.unordered("orders-queue");
      for (String id : waiting) {
        batch.add(id, clock.millis(), id.getBytes(StandardCharsets.UTF_8));
      }
      BatchResult result = pipeline.process(batch.build());
      batches++;
      applied += result.applied();
      assertTrue(
          result.succeeded() || result.failure().orElseThrow().contains("nothing failed"),
          result.failure().orElse(""));
      waiting = new ArrayList<>(result.failedOffsets());
      clock.advance(Duration.ofSeconds(30));
    }

    assertTrue(waiting.isEmpty(), waiting.size() + " messages still handed back after 20 batches");
    assertTrue(batches > 1, "one batch took all: the test no longer passes the item limit");
    assertEquals(messages, applied);
    assertEquals(Integer.toString(messages), results.texts().get(results.texts().size() - 1));
  }
}
