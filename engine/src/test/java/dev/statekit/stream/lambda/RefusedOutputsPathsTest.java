package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.egress.FunctionAddressSink;
import dev.statekit.function.Address;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every path a result takes to its sink sets a refused one aside once: window results fired by a
 * batch and by the tick, a given-up range's replay, stateless results, keys on a second instance,
 * dead letters; and what is set aside fits a queue. The in-memory store and queues.
 */
class RefusedOutputsPathsTest {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final TypeName EGRESS = TypeName.of("test", "refused-out");

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final InMemoryMessageBus queue = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
  private final CollectingEgressSink refused = new CollectingEgressSink();

  private EgressSink output() {
    return new FunctionAddressSink(Address.of(TypeName.of("test", "out"), "all"), queue);
  }

  /** Refused outputs set aside: records by their own id, however many parts each took. */
  private int setAsideCount() {
    return (int)
        refused.records().stream()
            .map(r -> RefusedOutput.TYPE.deserialize(r.value()).id())
            .distinct()
            .count();
  }

  private List<String> delivered() {
    return queue.peekAll().stream()
        .map(message -> EnvelopeCodec.tree(message.body()).get("value").asText())
        .toList();
  }

  private static Pipeline stateless(EgressSink sink) {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8))
        .to(EgressOutput.to(sink, EGRESS, Types.stringType()));
  }

  private BatchPipeline pipeline(Pipeline p) {
    BatchPipeline pipeline =
        BatchPipeline.builder("paths", p)
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(refused)
            .build();
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

  /** A stateless result past the queue's 256 KiB (and past 400 KB) is set aside. */
  @Test
  void aStatelessResultPast400KbIsSetAside() {
    BatchPipeline pipeline = pipeline(stateless(output()));
    BatchResult result = pipeline.process(shard(1000, "a", "x".repeat(450_000), "c"));
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("a", "c"), delivered());
    assertEquals(1, setAsideCount());
  }

  /**
   * A keyed result past about 400 KB never reaches the sink: the key keeps it in its item until it
   * is delivered. It failed its batch on every try (ItemLimit refused the key's item); it is set
   * aside.
   */
  @Test
  void aKeyedResultPast400KbIsSetAsideAndTheBatchGoesOn() {
    BatchPipeline pipeline = pipeline(RefusedOutputsContract.counted(output()));
    BatchResult result = pipeline.process(shard(1000, "k1,a", "k2," + "x".repeat(450_000), "k1,c"));
    assertTrue(result.succeeded(), result.toString());
    assertEquals(List.of("k1:1:a", "k1:2:c"), delivered());
    assertEquals(1, setAsideCount());
  }

  /**
   * A queue's message that fails in a process stage under FailurePolicy.deadLetter: its dead letter
   * (the bad input) is past the dead-letter queue's 256 KiB, so it is set aside, and the message is
   * not a failed one: Lambda deletes it. The value past 64 KiB was dropped, and the bad input was
   * then nowhere; it comes in parts.
   */
  @Test
  void aQueuesBadInputWhoseDeadLetterIsRefusedIsNotLost() {
    InMemoryMessageBus deadLetterQueue = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    EgressSink deadLetterSink =
        new FunctionAddressSink(Address.of(TypeName.of("test", "dlq"), "all"), deadLetterQueue);
    dev.statekit.types.Type<dev.statekit.stream.DeadLetter<String>> deadLetterType =
        Types.simple(
            TypeName.of("test", "dead-letter"),
            d ->
                (d.record().value() + "|" + d.error().getMessage())
                    .getBytes(StandardCharsets.UTF_8),
            b -> {
              throw new UnsupportedOperationException();
            });
    Pipeline p =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .<String>process(
                "check",
                (record, out) -> {
                  if (record.value().startsWith("bad")) {
                    throw new IllegalArgumentException("bad input");
                  }
                  out.collect(record.value());
                },
                dev.statekit.stream.FailurePolicy.deadLetter(
                    EgressOutput.to(
                        deadLetterSink, TypeName.of("test", "dead-letters"), deadLetterType)))
            .to(EgressOutput.to(output(), EGRESS, Types.stringType()));
    BatchPipeline pipeline = pipeline(p);
    String bad = "bad" + "y".repeat(300_000);
    SourceBatch batch =
        SourceBatch.unordered("orders-queue")
            .add("m1", 0, "a".getBytes(StandardCharsets.UTF_8))
            .add("m2", 0, bad.getBytes(StandardCharsets.UTF_8))
            .add("m3", 0, "c".getBytes(StandardCharsets.UTF_8))
            .build();

    BatchResult result = pipeline.process(batch);

    assertEquals(List.of("a", "c"), delivered());
    boolean keptOnQueue = result.failedOffsets().contains("m2");
    boolean inDeadLetters =
        deadLetterQueue.peekAll().stream().anyMatch(m -> m.body().contains("yyyyyyyy"));
    boolean inRefused =
        refused.records().stream()
            .map(r -> RefusedOutput.TYPE.deserialize(r.value()))
            .anyMatch(r -> r.value() != null);
    assertTrue(
        keptOnQueue || inDeadLetters || inRefused,
        "the bad input m2 is lost: failedOffsets="
            + result.failedOffsets()
            + ", dead letters="
            + deadLetterQueue.peekAll().size()
            + ", set aside="
            + refused.records().stream()
                .map(r -> RefusedOutput.TYPE.deserialize(r.value()))
                .map(r -> r.id() + " value=" + (r.value() == null ? "null" : r.value().length))
                .toList());
  }

  /**
   * A result keyed by (a long part of) its text: its stand-in carried the whole key, and the place
   * refused it in turn, failing the batch on every try; the key is cut.
   */
  @Test
  void aStandInIsItselfSmallEnoughForAQueuePlace() {
    InMemoryMessageBus placeQueue = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    EgressSink place =
        new FunctionAddressSink(Address.of(TypeName.of("test", "refused"), "all"), placeQueue);
    Pipeline p =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .to(EgressOutput.to(output(), EGRESS, Types.stringType()).withKey(s -> s));
    BatchPipeline pipeline =
        BatchPipeline.builder("paths-key", p)
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(place)
            .build();
    pipeline.registerSplits(List.of(SHARD));

    BatchResult result = pipeline.process(shard(1000, "a", "x".repeat(300_000), "c"));

    assertTrue(result.succeeded(), result.toString());
    assertTrue(placeQueue.peekAll().size() >= 1, "the place took every part");
  }

  /** A queue key with a large refused result in two batches, the second on a new instance. */
  @Test
  void aQueueKeysSecondLargeResultOnANewInstanceIsSetAsideToo() {
    BatchPipeline first = pipeline(RefusedOutputsContract.counted(output()));
    BatchResult one =
        first.process(
            SourceBatch.unordered("orders-queue")
                .add("m1", 0, ("k2," + "x".repeat(300_000)).getBytes(StandardCharsets.UTF_8))
                .build());
    BatchPipeline second = pipeline(RefusedOutputsContract.counted(output()));
    BatchResult two =
        second.process(
            SourceBatch.unordered("orders-queue")
                .add("m2", 0, ("k2," + "z".repeat(300_000)).getBytes(StandardCharsets.UTF_8))
                .build());
    assertEquals(List.of(), one.failedOffsets());
    assertEquals(List.of(), two.failedOffsets(), two.toString());
    assertEquals(2, setAsideCount());
  }

  /** The same on a shard, two batches, the second on a new instance. */
  @Test
  void aShardKeysSecondLargeResultOnANewInstanceIsSetAsideToo() {
    BatchPipeline first = pipeline(RefusedOutputsContract.counted(output()));
    BatchResult one = first.process(shard(1000, "k2," + "x".repeat(300_000)));
    BatchPipeline second = pipeline(RefusedOutputsContract.counted(output()));
    BatchResult two = second.process(shard(1001, "k2," + "z".repeat(300_000)));
    assertTrue(one.succeeded(), one.toString());
    assertTrue(two.succeeded(), two.toString());
    assertEquals(2, setAsideCount());
  }

  private static Pipeline windowed(EgressSink sink, int bigBytes) {
    return Pipeline.from(BatchSource.records())
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
        .withWatermarks(
            dev.statekit.stream.WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                .withTimestamps(parts -> Long.parseLong(parts[1]))
                .withIdleTimeout(Duration.ofMinutes(2)))
        .keyBy(parts -> parts[0])
        .window(dev.statekit.stream.Windows.tumbling(Duration.ofMillis(10)))
        .aggregate(
            dev.statekit.stream.AggregateFunction.<String[]>count(),
            Serdes.longs(),
            (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                key + "@" + w.start() + "=" + n + (key.equals("big") ? "x".repeat(bigBytes) : ""))
        .to(EgressOutput.to(sink, EGRESS, Types.stringType()));
  }

  private static SourceBatch on(String split, long firstSeq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(split);
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(firstSeq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** Window results past the queue's size, fired in a batch (from memory and from the index). */
  @Test
  void largeWindowResultsFiredByABatchAreSetAsideOnce() {
    for (int big : new int[] {300_000, 450_000}) {
      refused.clear();
      BatchPipeline pipeline =
          BatchPipeline.builder("win-" + big, windowed(output(), big))
              .store(store)
              .clock(clock)
              .batchTimeout(Duration.ofMinutes(1))
              .refusedOutputsTo(refused)
              .build();
      pipeline.registerSplits(List.of("s1"));
      assertTrue(pipeline.process(on("s1", 100, "a,1", "big,3", "big,4")).succeeded());
      BatchResult second = pipeline.process(on("s1", 103, "a,12", "big,13"));
      assertTrue(second.succeeded(), big + " " + second);
      BatchResult third = pipeline.process(on("s1", 105, "a,22", "big,23"));
      assertTrue(third.succeeded(), big + " " + third);
      assertEquals(2, setAsideCount(), big + " " + refused.records());
    }
  }

  /** The same fired by the tick. */
  @Test
  void largeWindowResultsFiredByTheTickAreSetAsideOnce() {
    for (int big : new int[] {300_000, 450_000}) {
      refused.clear();
      BatchPipeline pipeline =
          BatchPipeline.builder("tick-" + big, windowed(output(), big))
              .store(store)
              .clock(clock)
              .batchTimeout(Duration.ofMinutes(1))
              .refusedOutputsTo(refused)
              .build();
      pipeline.registerSplits(List.of("s1"));
      assertTrue(pipeline.process(on("s1", 100, "a,1", "big,3")).succeeded());
      int fired = 0;
      for (int tick = 0; tick < 5; tick++) {
        clock.advance(Duration.ofMinutes(2));
        fired += pipeline.tick().windowsFired();
      }
      assertEquals(2, fired, "windows fired " + big);
      assertEquals(1, setAsideCount(), big + " " + refused.records());
    }
  }

  /** A range Lambda gave up on (its result refused) replayed with a place. */
  @Test
  void aGivenUpRangesReplaySetsTheRefusedResultAside() {
    SourceBatch given = shard(1000, "k1,a", "k2," + "x".repeat(300_000));
    BatchPipeline without =
        BatchPipeline.builder("paths", RefusedOutputsContract.counted(output()))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    without.registerSplits(List.of(SHARD));
    org.junit.jupiter.api.Assertions.assertThrows(
        RuntimeException.class, () -> without.process(given));
    clock.advance(Duration.ofMinutes(2));
    BatchPipeline pipeline = pipeline(RefusedOutputsContract.counted(output()));
    assertTrue(pipeline.process(shard(1002, "k1,c")).succeeded());
    List<GivenUp> ranges = pipeline.givenUp();
    assertEquals(1, ranges.size(), ranges.toString());
    BatchResult replayed = pipeline.replay(ranges.get(0), given);
    assertTrue(replayed.succeeded(), replayed.toString());
    assertEquals(List.of(), pipeline.givenUp());
    assertEquals(1, setAsideCount());
    assertTrue(delivered().contains("k1:1:a"), delivered().toString());
  }
}
