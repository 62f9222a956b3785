package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressSink;
import dev.statekit.testing.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Schedules against the deferred outputs of unordered splits ({@link DeferredMessage}): the order
 * of a group's deferred outputs, and receipts a deferred entry points to outliving the outage.
 */
class DeferredOutputsScheduleTest {
  private static final String QUEUE = DeferredFixture.QUEUE;
  private static final Duration RETENTION = DeferredFixture.RETENTION;

  private final DeferredFixture fixture = new DeferredFixture();
  private final ManualClock clock = fixture.clock;
  private final InMemoryBatchStore memory = fixture.memory;
  private final List<String> delivered = fixture.delivered;
  private final FlakySink sink = fixture.sink;

  private BatchPipeline pipeline(BatchStore store, ManualClock at) {
    return pipeline(store, at, null);
  }

  /**
   * The counting pipeline by clock {@code at}, with {@code place} for refused records if not null.
   */
  private BatchPipeline pipeline(BatchStore store, ManualClock at, EgressSink place) {
    BatchPipeline.Builder builder = fixture.builder(DeferredFixture.counts(sink), store).clock(at);
    if (place != null) {
      builder.refusedOutputsTo(place);
    }
    return builder.build();
  }

  private static SourceBatch messages(int first, String group, String... keys) {
    return DeferredFixture.messages(first, group, keys);
  }

  private void expireReceipts() {
    fixture.expireReceipts();
  }

  private List<String> deferredIds() {
    return fixture.deferredIds();
  }

  @Test
  void aGroupsLaterBatchDeferredInTheSameMillisecondGoesOutAfterTheEarlierOnes() {
    BatchPipeline pipeline = pipeline(memory, clock);
    sink.down();
    assertTrue(pipeline.process(messages(1, "g", "a", "a")).succeeded());
    assertTrue(pipeline.process(messages(3, "g", "a")).succeeded(), "behind m-1 and m-2");

    sink.up();
    pipeline.tick();

    assertEquals(
        List.of("a:1", "a:2", "a:3"),
        delivered,
        "the group's order; the entries sort by (time, place in the batch, id), so m-3, first in"
            + " its batch, sorts between m-1 and m-2 deferred by a batch in the same millisecond");
  }

  /** A DynamoDB stream's changes of item "a", from sequence number {@code first} on. */
  private static SourceBatch changes(long first, int count) {
    SourceBatch.Builder batch = SourceBatch.changes("dynamodb:items");
    for (int i = 0; i < count; i++) {
      batch.add(
          Long.toString(first + i),
          1_000_000,
          "a".getBytes(StandardCharsets.UTF_8),
          Map.of(SourceBatch.ORDER_GROUP, "dynamodb:items"));
    }
    return batch.build();
  }

  @Test
  void aStreamsLaterChangesDeferredInTheSameMillisecondGoOutAfterTheEarlierOnes() {
    BatchPipeline pipeline = pipeline(memory, clock);
    sink.down();
    assertTrue(pipeline.process(changes(100, 2)).succeeded());
    assertTrue(pipeline.process(changes(102, 1)).succeeded(), "behind 100 and 101");

    sink.up();
    pipeline.tick();

    assertEquals(List.of("a:1", "a:2", "a:3"), delivered, "the item's changes in their order");
  }

  @Test
  void aGroupsLaterBatchOnAnEnvironmentWhoseClockIsBehindGoesOutAfterTheEarlierOne() {
    // Two execution environments, the second's clock 5 ms behind the first's.
    ManualClock behind = new ManualClock(1_000_000);
    ManualClock ahead = new ManualClock(1_000_005);
    BatchPipeline first = pipeline(memory, ahead);
    BatchPipeline second = pipeline(memory, behind);
    sink.down();
    assertTrue(first.process(messages(1, "g", "a")).succeeded());
    assertTrue(second.process(messages(2, "g", "a")).succeeded(), "behind m-1, deferred too");

    sink.up();
    first.tick();
    assertEquals(
        List.of("a:1", "a:2"),
        delivered,
        "the group's order; the entries sort by the clock of the environment that deferred them");
  }

  @Test
  void deferredMessagesPastTheFirstPageKeepTheirReceiptsThroughALongOutage() {
    BatchPipeline pipeline = pipeline(memory, clock);
    String[] keys = new String[101];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = "k" + i;
    }
    sink.down();
    assertTrue(pipeline.process(messages(1, null, keys)).succeeded());
    assertEquals(101, deferredIds().size());

    // The sink stays down for longer than the retention; the tick runs all along.
    for (int i = 0; i < 6; i++) {
      clock.advance(RETENTION.dividedBy(4));
      assertThrows(EgressException.class, pipeline::tick);
    }
    expireReceipts();

    sink.up();
    pipeline.tick();
    assertEquals(List.of(), deferredIds());
    assertTrue(
        delivered.contains("k100:1"),
        "the 101st deferred message's output, its receipt never written again; delivered "
            + delivered.size());
  }

  @Test
  void aCopyOfAMessageReceiptedEarlierKeepsItsReceiptUntilItsOutputsAreDelivered() {
    AtomicBoolean storeFails = new AtomicBoolean(true);
    BatchStore store =
        new ForwardingBatchStore(memory) {
          @Override
          public void putDeferred(String pipeline, String split, List<DeferredMessage> messages) {
            if (storeFails.getAndSet(false)) {
              throw new dev.statekit.stream.state.StateStoreException(
                  Reason.UNAVAILABLE, "throttled", null);
            }
            super.putDeferred(pipeline, split, messages);
          }
        };
    BatchPipeline pipeline = pipeline(store, clock);
    sink.down();
    // Applied and receipted at t0; the deferral's write fails, so the message goes back.
    assertThrows(RuntimeException.class, () -> pipeline.process(messages(1, null, "a")));

    // SQS hands it over again late in the retention (its visibility timeout times its receive
    // count, which the retention is to outlast): the copy finds the receipt and defers it.
    clock.advance(RETENTION.multipliedBy(9).dividedBy(10));
    assertTrue(pipeline.process(messages(1, null, "a")).succeeded());
    assertEquals(List.of("m-1"), deferredIds());

    // The tick runs every minute while the sink is down.
    for (int i = 0; i < 4; i++) {
      clock.advance(RETENTION.dividedBy(10));
      assertThrows(EgressException.class, pipeline::tick);
    }
    expireReceipts();

    sink.up();
    pipeline.tick();
    assertEquals(
        List.of("a:1"),
        delivered,
        "its receipt, written at t0, expired at t0 + retention: the entry's 'since' is when the"
            + " copy deferred it, so the tick did not write it again in time");
  }

  /**
   * A deferred output the sink refuses for what it holds waits, and the split's later deferred
   * outputs behind it (their order), until the pipeline has a place for refused records: nothing is
   * lost, and the tick's failure names the record.
   */
  @Test
  void aDeferredOutputTheSinkRefusesHoldsTheOthersUntilThePipelineHasAPlace() {
    BatchPipeline pipeline = pipeline(memory, clock);
    sink.down();
    assertTrue(pipeline.process(messages(1, null, "big")).succeeded());
    assertTrue(pipeline.process(messages(2, null, "a")).succeeded());
    assertEquals(List.of("m-1", "m-2"), deferredIds());

    sink.up();
    clock.advance(Duration.ofMinutes(1));
    EgressException refused = assertThrows(EgressException.class, pipeline::tick);
    assertTrue(refused.refusedRecordId().isPresent(), refused.getMessage());
    assertEquals(List.of("m-1", "m-2"), deferredIds(), "kept, in order");

    List<String> setAside = new ArrayList<>();
    BatchPipeline withPlace =
        pipeline(memory, clock, records -> records.forEach(r -> setAside.add(r.id())));
    clock.advance(Duration.ofMinutes(1));
    assertEquals(2, withPlace.tick().deferredDelivered());
    assertEquals(List.of("a:1"), delivered);
    assertEquals(1, setAside.size(), "big:1's stand-in: " + setAside);
    assertEquals(List.of(), deferredIds());
  }

  @Test
  void aFifoBatchOfAnotherGroupIsNotFailedByARefusedDeferredOutput() {
    BatchPipeline pipeline = pipeline(memory, clock);
    sink.down();
    assertTrue(pipeline.process(messages(1, "g", "big")).succeeded());

    sink.up();
    // Group h has nothing to do with m-1 of group g: it is not failed, it waits behind it.
    BatchResult result = assertDoesNotThrowResult(() -> pipeline.process(messages(2, "h", "b")));
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("m-1", "m-2"), deferredIds());

    BatchPipeline withPlace = pipeline(memory, clock, records -> {});
    assertEquals(2, withPlace.tick().deferredDelivered());
    assertEquals(List.of("b:1"), delivered);
  }

  private static BatchResult assertDoesNotThrowResult(
      java.util.function.Supplier<BatchResult> run) {
    try {
      return run.get();
    } catch (RuntimeException e) {
      throw new AssertionError(
          "a batch of group h failed for group g's deferred output: " + e.getMessage(), e);
    }
  }
}
