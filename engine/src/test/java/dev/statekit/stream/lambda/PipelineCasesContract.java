package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The five ways issue 11 found to break "the batch is a checkpoint", each as a test named for its
 * case, run on the in-memory store and on DynamoDB.
 */
abstract class PipelineCasesContract {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final String QUEUE = "orders-queue";

  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());

  final String name = "cases-" + Long.toHexString(System.nanoTime());
  final ManualClock clock = new ManualClock(1_700_000_000_000L);

  /** The store under test. */
  abstract BatchStore store();

  /** A results table, written by id. */
  abstract EgressSink results();

  /** What the results table holds: text by id. */
  abstract Map<String, String> stored();

  /** Simulated minutes of the hot key's traffic, and messages per batch. */
  abstract int hotMinutes();

  abstract int hotBatch();

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private BatchPipeline pipeline(Pipeline pipeline) {
    return BatchPipeline.builder(name, pipeline)
        .store(store())
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  /** "key,value": each record's output is "key:value", one per record. */
  private Pipeline perRecord(EgressSink sink) {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split(","))
        .keyBy(parts -> parts[0])
        .<String>process(
            (record, context, out) -> {
              ValueState<Long> seen = context.state(SEEN);
              seen.update(seen.value() == null ? 1 : seen.value() + 1);
              out.collect(String.join(":", record.value()));
            },
            SEEN)
        .to(EgressOutput.to(sink, TypeName.of("test", "cases"), Types.stringType()));
  }

  /** "key@time": counts in tumbling windows of 100 ms of event time. */
  private Pipeline windowed(EgressSink sink) {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split("@"))
        .withWatermarks(
            WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                .withTimestamps(parts -> Long.parseLong(parts[1]))
                .withIdleTimeout(Duration.ofHours(1)))
        .keyBy(parts -> parts[0])
        .window(Windows.tumbling(Duration.ofMillis(100)))
        .aggregate(
            AggregateFunction.<String[]>count(),
            Serdes.longs(),
            (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "=" + n)
        .to(EgressOutput.to(sink, TypeName.of("test", "cases"), Types.stringType()));
  }

  private static SourceBatch shard(long firstSequence, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    long sequence = firstSequence;
    for (String record : records) {
      batch.add(Long.toString(sequence++), 0, bytes(record));
    }
    return batch.build();
  }

  private Set<String> texts() {
    return new TreeSet<>(stored().values());
  }

  @Test
  void case1PerRecordOutputsOfAFailedDeliveryArriveWhenTheBatchIsRetried() {
    FlakySink sink = new FlakySink(results());
    BatchPipeline pipeline = pipeline(perRecord(sink));
    pipeline.registerSplits(List.of(SHARD));
    SourceBatch first = shard(1000, "k1,a", "k2,b", "k1,c");

    sink.failNext(1);
    assertThrows(RuntimeException.class, () -> pipeline.process(first), "the sink refused");
    pipeline.process(first); // Lambda retries the batch
    pipeline.process(shard(1003, "k1,d", "k3,e"));

    assertEquals(Set.of("k1:a", "k2:b", "k1:c", "k1:d", "k3:e"), texts());
    assertEquals(5, stored().size(), "each output once");
  }

  @Test
  void case2WindowsFireWhenMoreThan100TimerItemsShareOneWindowEnd() {
    BatchPipeline pipeline = pipeline(windowed(results()));
    pipeline.registerSplits(List.of(SHARD));
    int keys = 150;
    long sequence = 1000;
    for (int i = 0; i < keys; i++) {
      pipeline.process(shard(sequence++, "k" + i + "@" + (i % 100))); // one timer item each
    }
    // Event time passes the window's end; the batches after it and the ticks fire what is due.
    for (int round = 0; round < 5; round++) {
      pipeline.process(shard(sequence++, "late-key@" + (1000 + round)));
      clock.advance(Duration.ofMinutes(2));
      pipeline.tick();
    }
    Set<String> expected = new TreeSet<>();
    for (int i = 0; i < keys; i++) {
      expected.add("k" + i + "@0=1");
    }
    Set<String> fired = texts();
    fired.removeIf(text -> text.startsWith("late-key"));
    assertEquals(expected, fired);
  }

  /**
   * A firing that reads as many timer items as one query returns stops short of the watermark (the
   * items beyond may hold windows of earlier ends): a window it fired, of a key with records in the
   * batch, fired again in a later round (with a later record in it), and a window of a key named by
   * an item it read fired again when a later item named it too.
   */
  @Test
  void case2bAWindowFiresOnceWhenAFiringStopsAtTheIndexLimit() {
    java.util.Map<String, Integer> deliveries = new java.util.TreeMap<>();
    BatchPipeline pipeline = pipeline(windowed(counting(deliveries)));
    String a = "orders/shardId-a";
    String b = "orders/shardId-b";
    pipeline.registerSplits(List.of(a, b));
    // Shard b holds the pipeline's watermark back while shard a opens 150 windows ending at 99 or
    // 199, one batch (and one timer item) each.
    pipeline.process(batch(b, 1, "held@0"));
    for (int i = 0; i < 150; i++) {
      pipeline.process(batch(a, 1 + i, "k" + i + "@" + i));
    }
    // Shard b passes 149: the windows ending at 99 come due, more of them than one query reads.
    pipeline.process(batch(b, 2, "k3@50", "held@300"));
    pipeline.process(batch(a, 200, "k3@60", "k7@70", "k120@160"));
    pipeline.process(batch(b, 3, "k3@80", "held@400"));
    for (int round = 0; round < 5; round++) {
      pipeline.process(batch(a, 300 + round, "a-late@" + (1000 + 100 * round)));
      pipeline.process(batch(b, 300 + round, "b-late@" + (1000 + 100 * round)));
      clock.advance(Duration.ofMinutes(2));
      pipeline.tick();
    }
    deliveries.forEach((id, times) -> assertEquals(1, times, "window result " + id));
    Set<String> fired = texts();
    fired.removeIf(text -> text.contains("-late@"));
    assertTrue(fired.contains("k3@0=2"), "k3's window fired with the records before it: " + fired);
    assertTrue(fired.contains("k120@100=2"), "k120's window, with its later record: " + fired);
    assertEquals(153, fired.size(), "one result per window: " + fired);
  }

  /**
   * As above, the items read ending at many window ends: the firing stops before the last end it
   * read, and a window of a key with records in the batch that ends after that is not fired yet (it
   * fired in that round, and again in the next).
   */
  @Test
  void case2cAWindowOfTheBatchAfterWhereTheFiringStopsFiresOnceLater() {
    java.util.Map<String, Integer> deliveries = new java.util.TreeMap<>();
    BatchPipeline pipeline = pipeline(windowed(counting(deliveries)));
    String a = "orders/shardId-a";
    String b = "orders/shardId-b";
    pipeline.registerSplits(List.of(a, b));
    pipeline.process(batch(b, 1, "held@0"));
    // 150 items, ten of each window end from 99 to 1499.
    for (int i = 0; i < 150; i++) {
      pipeline.process(batch(a, 1 + i, "k" + i + "@" + (i * 10)));
    }
    // The query reads the items through end 999; k95's window ends at 999.
    pipeline.process(batch(b, 2, "k95@960", "held@1200"));
    pipeline.process(batch(b, 3, "k95@970", "held@1300"));
    pipeline.process(batch(a, 200, "k95@980", "k140@1450"));
    for (int round = 0; round < 5; round++) {
      pipeline.process(batch(a, 300 + round, "a-late@" + (3000 + 100 * round)));
      pipeline.process(batch(b, 300 + round, "b-late@" + (3000 + 100 * round)));
      clock.advance(Duration.ofMinutes(2));
      pipeline.tick();
    }
    deliveries.forEach((id, times) -> assertEquals(1, times, "window result " + id));
    Set<String> fired = texts();
    fired.removeIf(text -> text.contains("-late@"));
    // Its records after the first firing's watermark are late, as they are to the in-process
    // engine.
    assertTrue(fired.contains("k95@900=2"), "k95's window: " + fired);
    assertTrue(fired.contains("k140@1400=2"), "k140's window: " + fired);
    assertEquals(153, fired.size(), "one result per window: " + fired);
  }

  /** {@link #results()}, counting the deliveries of each id into {@code deliveries}. */
  private EgressSink counting(Map<String, Integer> deliveries) {
    EgressSink sink = results();
    return (List<EgressRecord> records) -> {
      sink.deliver(records);
      records.forEach(r -> deliveries.merge(r.id(), 1, Integer::sum));
    };
  }

  private static SourceBatch batch(String split, long firstSequence, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(split);
    long sequence = firstSequence * 1000;
    for (String record : records) {
      batch.add(Long.toString(sequence++), 0, bytes(record));
    }
    return batch.build();
  }

  @Test
  void case3AHotQueueKeyStaysSmallAndAppliesARedeliveryOnce() {
    AtomicLong latest = new AtomicLong();
    EgressSink sums =
        (List<EgressRecord> records) ->
            records.forEach(
                r -> latest.accumulateAndGet(Long.parseLong(r.text().orElseThrow()), Math::max));
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .map(b -> 1L)
            .keyBy(one -> "hot")
            .reduce(Long::sum, Serdes.longs())
            .map(String::valueOf)
            .to(EgressOutput.to(sums, TypeName.of("test", "sums"), Types.stringType()));
    BatchPipeline pipeline = pipeline(counts);
    int perMinute = 1000;
    int batch = hotBatch();
    long messages = (long) hotMinutes() * perMinute;
    Duration between = Duration.ofMillis(60_000L * batch / perMinute);
    SourceBatch redelivered = null;
    int largest = 0;
    for (long sent = 0; sent < messages; sent += batch) {
      SourceBatch.Builder next = SourceBatch.unordered(QUEUE);
      for (int i = 0; i < batch; i++) {
        next.add("m-" + (sent + i), clock.millis(), bytes("x"));
      }
      SourceBatch built = next.build();
      pipeline.process(built);
      if (sent == 2L * perMinute) {
        redelivered = built; // its visibility timeout runs out while its first attempt still runs
      }
      if (sent == 5L * perMinute && redelivered != null) {
        pipeline.process(redelivered);
        assertEquals(sent + batch, latest.get(), "the redelivered batch was applied again");
      }
      if (sent % (10L * perMinute) == 0 || sent + batch >= messages) {
        largest = Math.max(largest, itemBytes());
      }
      clock.advance(between);
    }
    assertEquals(messages, latest.get(), "every message applied once");
    assertTrue(largest < 100 * 1024, "the hot key's item grew to " + largest + " bytes");
    System.out.println(
        "case 3: "
            + messages
            + " messages to one key over "
            + hotMinutes()
            + " simulated minutes; its item peaked at "
            + largest
            + " bytes");
  }

  private int itemBytes() {
    int largest = 0;
    for (KeyItem item : store().readKeys(name, "1.0-reduce", List.of("hot")).values()) {
      largest =
          Math.max(
              largest,
              (item.state() == null ? 0 : item.state().length)
                  + (item.bookkeeping() == null ? 0 : item.bookkeeping().length));
    }
    return largest;
  }

  @Test
  void case4InterleavedBatchesOfOneShardAreRefusedNeverSkipped() {
    BatchPipeline pipeline = pipeline(perRecord(results()));
    pipeline.registerSplits(List.of(SHARD));
    // ParallelizationFactor 2: one shard's records in two concurrent batches, by partition key.
    SourceBatch a =
        SourceBatch.ordered(SHARD)
            .add("1001", 0, bytes("a,1"))
            .add("1003", 0, bytes("a,3"))
            .add("1005", 0, bytes("a,5"))
            .build();
    SourceBatch b =
        SourceBatch.ordered(SHARD)
            .add("1002", 0, bytes("b,2"))
            .add("1004", 0, bytes("b,4"))
            .add("1006", 0, bytes("b,6"))
            .build();
    pipeline.process(a);
    RuntimeException refused = null;
    try {
      pipeline.process(b);
    } catch (RuntimeException e) {
      refused = e;
    }
    if (refused == null) {
      assertEquals(
          Set.of("a:1", "a:3", "a:5", "b:2", "b:4", "b:6"),
          texts(),
          "a batch that was not refused must apply every record");
    } else {
      assertTrue(
          refused.getMessage().contains("ParallelizationFactor"),
          "the refusal says what to change: " + refused.getMessage());
      assertEquals(Set.of("a:1", "a:3", "a:5"), texts());
    }
  }

  @Test
  void case5ABatchLambdaGivesUpOnTakesNoWindowWithIt() {
    FlakySink sink = new FlakySink(results());
    AtomicBoolean crashAtK2 = new AtomicBoolean();
    BatchPipeline pipeline =
        BatchPipeline.builder(name, windowed(sink))
            .store(store())
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(
                (step, detail) -> {
                  if (crashAtK2.get()
                      && step == BatchFaultHook.Step.KEY_WRITE
                      && "k2".equals(detail)) {
                    throw new IllegalStateException("the invocation died writing k2");
                  }
                })
            .build();
    pipeline.registerSplits(List.of(SHARD));
    pipeline.process(shard(1000, "k1@10", "k1@20"));
    // This batch fires k1's window [0, 100) and adds to k1 and k2; every attempt dies after
    // writing k1 but not k2, with the sink down, and after 11 attempts (MaximumRetryAttempts: 10)
    // Lambda moves on to the next batch.
    SourceBatch givenUp = shard(1002, "k2@150", "k1@160");
    sink.down();
    crashAtK2.set(true);
    for (int attempt = 0; attempt < 11; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(givenUp));
    }
    sink.up();
    crashAtK2.set(false);
    pipeline.process(shard(1004, "k3@250"));
    clock.advance(Duration.ofMinutes(2));
    pipeline.tick();
    assertEquals(Set.of(), texts(), "no window fires past the given-up records");

    GivenUp gap = new GivenUp(SHARD, "1001", "1004", 19, pipeline.givenUp().get(0).at(), "1002");
    assertEquals(List.of(gap), pipeline.givenUp(), "what Lambda gave up on is recorded");
    assertThrows(
        IllegalArgumentException.class,
        () -> pipeline.replay(gap, SourceBatch.unordered(SHARD).build()),
        "a replay is an ordered batch of the range's split, even an empty one (an unordered one"
            + " was taken and could leave the range open while saying it replayed it)");
    assertEquals(List.of(gap), pipeline.givenUp());
    BatchResult replayed = pipeline.replay(gap, shard(1002, "k2@150", "k1@160"));
    assertEquals(1, replayed.applied(), "k2's record applied; k1 had applied its own");
    assertEquals(List.of(), pipeline.givenUp());
    assertThrows(
        IllegalArgumentException.class,
        () -> pipeline.replay(gap, shard(1002, "k2@150", "k1@160")),
        "a range is replayed once");
    clock.advance(Duration.ofMinutes(2));
    pipeline.tick();
    assertEquals(Set.of("k1@0=2", "k1@100=1", "k2@100=1"), texts());
    assertEquals(3, stored().size(), "each window once");
  }

  @Test
  void case5ARangeOnlyTheOnFailureRecordNamesIsReplayedOnce() {
    AtomicBoolean tableDown = new AtomicBoolean();
    BatchStore refusing =
        (BatchStore)
            java.lang.reflect.Proxy.newProxyInstance(
                BatchStore.class.getClassLoader(),
                new Class<?>[] {BatchStore.class},
                (proxy, method, args) -> {
                  if (tableDown.get() && method.getName().startsWith("putAttempt")) {
                    throw new dev.statekit.stream.state.StateStoreException(
                        dev.statekit.StateKitException.Reason.UNAVAILABLE, "the table is down");
                  }
                  try {
                    return method.invoke(store(), args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    BatchPipeline pipeline =
        BatchPipeline.builder(name, perRecord(results()))
            .store(refusing)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    pipeline.registerSplits(List.of(SHARD));
    pipeline.process(shard(1000, "k1,a"));
    // Every attempt of this batch fails before it reaches the table; Lambda gives up on it and
    // sends shard, 1001 and 1002 to the on-failure destination.
    SourceBatch givenUp = shard(1001, "k1,b", "k2,c");
    tableDown.set(true);
    for (int attempt = 0; attempt < 11; attempt++) {
      assertThrows(RuntimeException.class, () -> pipeline.process(givenUp));
    }
    tableDown.set(false);
    pipeline.process(shard(1003, "k1,d"));
    assertEquals(List.of(), pipeline.givenUp(), "no attempt reached the table: nothing to notice");

    GivenUp onFailure = GivenUp.onFailure(SHARD, "1001", "1002");
    assertEquals(2, pipeline.replay(onFailure, givenUp).applied());
    assertEquals(Set.of("k1:a", "k1:b", "k2:c", "k1:d"), texts());
    assertEquals(4, stored().size(), "each output once");
    IllegalArgumentException again =
        assertThrows(IllegalArgumentException.class, () -> pipeline.replay(onFailure, givenUp));
    assertTrue(again.getMessage().contains("Nothing to replay"), again.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> pipeline.replay(GivenUp.onFailure(SHARD, "1000", "1000"), shard(1000, "k1,a")),
        "a batch that checkpointed: its records were applied");
  }

  /**
   * A key longer than the store can hold (a page's URL, keyed as it comes) fails its own record,
   * saying why: DynamoDB refused the batch's whole read of keys, so on a queue every message of the
   * batch failed with it, its neighbours dead-lettered by the redrive without a word of why. A key
   * of the most bytes a store takes is kept.
   */
  @Test
  void aKeyTooLongForTheStoreFailsItsOwnRecordOnly() {
    BatchPipeline pipeline = pipeline(perRecord(results()));
    String longest = "é".repeat(BatchStore.MAX_KEY_BYTES / 2);
    String tooLong = "k".repeat(BatchStore.MAX_KEY_BYTES + 1);
    BatchResult queue =
        pipeline.process(
            SourceBatch.unordered(QUEUE)
                .add("m-1", 0, bytes("k1,a"))
                .add("m-2", 0, bytes(tooLong + ",b"))
                .add("m-3", 0, bytes(longest + ",c"))
                .build());
    assertEquals(List.of("m-2"), queue.failedOffsets());
    assertTrue(
        queue.failure().orElseThrow().contains("its key is 1025 bytes"),
        queue.failure().orElseThrow());
    assertEquals(Set.of("k1:a", longest + ":c"), texts());

    pipeline.registerSplits(List.of(SHARD));
    BatchResult shard = pipeline.process(shard(1000, "k2,d", tooLong + ",e", "k3,f"));
    assertEquals(List.of("1001"), shard.failedOffsets(), "the shard resumes at the long key");
    assertEquals(Set.of("k1:a", longest + ":c", "k2:d"), texts());
  }

  /**
   * The window result of a key as long as the check admits is delivered: its id names the key, so
   * it is longer than the key, and as a table's sort key (the application table's results) it
   * passed DynamoDB's 1,024 bytes, so every batch firing it failed for good on AWS.
   */
  @Test
  void aWindowOfTheLongestKeyIsDelivered() {
    BatchPipeline pipeline = pipeline(windowed(results()));
    pipeline.registerSplits(List.of(SHARD));
    String key = "k".repeat(BatchStore.MAX_KEY_BYTES);
    assertEquals(List.of(), pipeline.process(shard(1000, key + "@5")).failedOffsets());
    BatchResult fired = pipeline.process(shard(1001, "other@500")); // event time passes the window
    assertEquals(List.of(), fired.failedOffsets(), () -> fired.failure().orElse(""));
    assertTrue(texts().contains(key + "@0=1"), "the long key's window result was delivered");
  }
}
