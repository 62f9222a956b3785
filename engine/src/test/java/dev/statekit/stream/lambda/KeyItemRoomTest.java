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
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What a key's item keeps, measured exactly: a queue's messages without outputs still take room
 * (their pending entries), a message that fits is not handed back for another's, a FIFO group's
 * followers leave with the message they follow, a message no item could keep goes back at once (not
 * its key's other messages behind it), and a shard's stand-ins and carried results keep their order
 * after a retry. In-memory adapters.
 */
class KeyItemRoomTest {
  private static final TypeName EGRESS = TypeName.of("test", "keyed-out");
  private static final StateSpec<ValueState<String>> BLOB =
      StateSpec.value("blob", Serdes.string());

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final CollectingEgressSink output = new CollectingEgressSink();
  private final CollectingEgressSink place = new CollectingEgressSink();

  /**
   * "k,state:N" sets k's state to N characters; "k,grow:N" appends N; "k,noop" changes nothing and
   * emits nothing; anything else emits "k:value".
   */
  private Pipeline blobs() {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
        .keyBy(parts -> parts[0])
        .<String>process(
            (record, context, out) -> {
              ValueState<String> blob = context.state(BLOB);
              String v = record.value()[1];
              if (v.startsWith("state:")) {
                blob.update("s".repeat(Integer.parseInt(v.substring(6))));
              } else if (v.startsWith("grow:")) {
                String was = blob.value() == null ? "" : blob.value();
                blob.update(was + "g".repeat(Integer.parseInt(v.substring(5))));
              } else if (!v.equals("noop")) {
                out.collect(record.value()[0] + ":" + v);
              }
            },
            BLOB)
        .to(EgressOutput.to(output, EGRESS, Types.stringType()));
  }

  private BatchPipeline pipeline(String name, EgressSink refused, BatchFaultHook hook) {
    BatchPipeline.Builder builder =
        BatchPipeline.builder(name, blobs())
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(hook);
    if (refused != null) {
      builder.refusedOutputsTo(refused);
    }
    return builder.build();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private BatchResult manyOutputlessMessages(String name, int state) {
    BatchPipeline pipeline = pipeline(name, place, BatchFaultHook.NONE);
    BatchResult first =
        pipeline.process(
            SourceBatch.unordered("orders-queue").add("m0", 0, utf8("k,state:" + state)).build());
    assertEquals(List.of(), first.failedOffsets(), first.toString());
    SourceBatch.Builder batch = SourceBatch.unordered("orders-queue");
    batch.add("other-message", 0, utf8("other,x"));
    java.util.Random random = new java.util.Random(1);
    for (int i = 0; i < 1500; i++) {
      batch.add(new UUID(random.nextLong(), random.nextLong()).toString(), 0, utf8("k,noop"));
    }
    try {
      return pipeline.process(batch.build());
    } catch (RuntimeException e) {
      throw new AssertionError("the whole batch fails (on every try): " + e.getMessage(), e);
    }
  }

  /**
   * Every applied message adds a pending entry (about 64 bytes with an SQS message id, outputs or
   * not): 1,500 output-less messages of one key add about 96 KB. The cheap bound left them out,
   * said "fits" beside a 340 KB state, and the key's write failed the whole batch.
   */
  @Test
  void manyOutputlessMessagesOfAKeyNearTheItemsLimitGoBackNotTheBatch() {
    BatchResult result = manyOutputlessMessages("outputless", 340_000);
    assertTrue(!result.failedOffsets().contains("other-message"), result.toString());
  }

  /** The control: a larger state (the bound says no) and the exact measure hands back. */
  @Test
  void theSameWithALargerStateIsMeasuredAndHandedBack() {
    BatchResult result = manyOutputlessMessages("outputless-control", 350_000);
    assertTrue(!result.failedOffsets().contains("other-message"), result.toString());
    assertTrue(!result.failedOffsets().isEmpty(), result.toString());
  }

  /**
   * A queue key whose state takes 300 KB; m1 grows it by 150 KB (past the item on its own, no
   * output), m2 emits a small result. Which message grew the state is not known: the growth is
   * shared among the key's messages, which go back by what they take until the next pass fits (m2
   * too, while it comes with m1), and the other keys' messages are applied. Before, the whole batch
   * failed on every try.
   */
  @Test
  void aKeyWhoseStateOutgrowsTheItemHandsBackItsMessagesNotTheBatch() {
    BatchPipeline pipeline = pipeline("grow", place, BatchFaultHook.NONE);
    assertEquals(
        List.of(),
        pipeline
            .process(SourceBatch.unordered("q").add("m0", 0, utf8("k,state:300000")).build())
            .failedOffsets());
    SourceBatch batch =
        SourceBatch.unordered("q")
            .add("m1", 0, utf8("k,grow:150000"))
            .add("m2", 0, utf8("k,hello"))
            .add("m3", 0, utf8("other,x"))
            .build();
    BatchResult once = pipeline.process(batch);
    assertTrue(once.failedOffsets().contains("m1"), once.toString());
    assertTrue(!once.failedOffsets().contains("m3"), once.toString());
    assertTrue(once.failure().orElse("").contains("keep less per key"), once.toString());
    // Once m1 is in the dead-letter queue, m2 is applied.
    assertEquals(
        List.of(),
        pipeline
            .process(SourceBatch.unordered("q").add("m2", 0, utf8("k,hello")).build())
            .failedOffsets());
  }

  /**
   * A shard key with a 395 KB state; records 1001 (15 KB result) and 1002 (20 KB) of one batch are
   * both set aside (1002 first, the largest). The invocation dies before delivering; the retry
   * delivers the kept outbox in record order, 1001 before 1002. Each stand-in's outbox entry was
   * moved to the end, and the retry delivered 1002 first.
   */
  @Test
  void standInsOfOneKeyReachThePlaceInRecordOrderAfterARetry() {
    java.util.concurrent.atomic.AtomicBoolean crash =
        new java.util.concurrent.atomic.AtomicBoolean(false);
    BatchPipeline pipeline =
        pipeline(
            "order",
            place,
            (step, detail) -> {
              if (step == BatchFaultHook.Step.DELIVERY && crash.getAndSet(false)) {
                throw new IllegalStateException("died before delivering");
              }
            });
    pipeline.registerSplits(List.of("s/shardId-0"));
    assertTrue(
        pipeline
            .process(
                SourceBatch.ordered("s/shardId-0").add("1000", 0, utf8("k,state:395000")).build())
            .succeeded());
    SourceBatch batch =
        SourceBatch.ordered("s/shardId-0")
            .add("1001", 0, utf8("k," + "a".repeat(15_000)))
            .add("1002", 0, utf8("k," + "b".repeat(20_000)))
            .build();
    crash.set(true);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalStateException.class, () -> pipeline.process(batch));
    BatchResult retried = pipeline.process(batch);
    assertTrue(retried.succeeded(), retried.toString());
    List<String> standIns =
        place.records().stream()
            .map(r -> RefusedOutput.TYPE.deserialize(r.value()).reason().substring(0, 12))
            .toList();
    assertEquals(List.of("Record 1001 ", "Record 1002 "), standIns);
  }

  /**
   * A hot queue key with a small state: 7,000 output-less messages in one batch (SQS hands over up
   * to 10,000 with a batching window) add about 450 KB of pending entries: some go back, and
   * another key's message is applied. A bound that left the entries out said "fits", and the key's
   * write failed the whole batch on every try.
   */
  @Test
  void aHotQueueKeyOfOutputlessMessagesDoesNotFailTheWholeBatch() {
    BatchPipeline pipeline = pipeline("hot", place, BatchFaultHook.NONE);
    SourceBatch.Builder batch = SourceBatch.unordered("orders-queue");
    batch.add("other-message", 0, utf8("other,x"));
    java.util.Random random = new java.util.Random(2);
    for (int i = 0; i < 7000; i++) {
      batch.add(new UUID(random.nextLong(), random.nextLong()).toString(), 0, utf8("k,noop"));
    }
    BatchResult result;
    try {
      result = pipeline.process(batch.build());
    } catch (RuntimeException e) {
      throw new AssertionError("the whole batch fails (on every try): " + e.getMessage(), e);
    }
    assertTrue(!result.failedOffsets().contains("other-message"), result.toString());
  }

  /**
   * Thousands of a key's messages each growing its state past the item between them: half go back a
   * pass, so the batch takes a few passes, not one per message, and the other key's message is
   * applied.
   */
  @Test
  void aKeyWhoseStateThousandsOfMessagesGrowGoesBackInHalves() {
    BatchPipeline pipeline = pipeline("halves", place, BatchFaultHook.NONE);
    pipeline.process(SourceBatch.unordered("q").add("m0", 0, utf8("k,state:300000")).build());
    SourceBatch.Builder batch = SourceBatch.unordered("q");
    for (int i = 0; i < 4000; i++) {
      batch.add("g" + i, 0, utf8("k,grow:100"));
    }
    batch.add("o", 0, utf8("other,x"));

    BatchResult result = pipeline.process(batch.build());

    assertTrue(!result.failedOffsets().contains("o"), result.failure().orElse(""));
    assertTrue(result.failedOffsets().contains("g3999"), result.failure().orElse(""));
    assertTrue(!result.failedOffsets().contains("g0"), "the first messages fit");
  }

  /** Thousands of a key's messages to hand back: measured in a few rounds, not once each. */
  @Test
  void thousandsOfMessagesOfAKeyGoBackInOnePass() {
    BatchPipeline pipeline = pipeline("timing", place, BatchFaultHook.NONE);
    pipeline.process(
        SourceBatch.unordered("orders-queue").add("m0", 0, utf8("k,state:350000")).build());
    SourceBatch.Builder batch = SourceBatch.unordered("orders-queue");
    java.util.Random random = new java.util.Random(3);
    for (int i = 0; i < 6000; i++) {
      batch.add(new UUID(random.nextLong(), random.nextLong()).toString(), 0, utf8("k,noop"));
    }
    SourceBatch built = batch.build();
    BatchResult result = pipeline.process(built);
    assertTrue(result.failedOffsets().size() > 0, result.toString());
    assertTrue(result.applied() > 0, "the messages that fit are applied: " + result);
  }

  /** Without a crash the key's stand-ins reach the place in record order (the control). */
  @Test
  void standInsInRecordOrderWithoutACrash() {
    BatchPipeline pipeline = pipeline("order-plain", place, BatchFaultHook.NONE);
    pipeline.registerSplits(List.of("s/shardId-0"));
    assertTrue(
        pipeline
            .process(
                SourceBatch.ordered("s/shardId-0").add("1000", 0, utf8("k,state:395000")).build())
            .succeeded());
    assertTrue(
        pipeline
            .process(
                SourceBatch.ordered("s/shardId-0")
                    .add("1001", 0, utf8("k," + "a".repeat(15_000)))
                    .add("1002", 0, utf8("k," + "b".repeat(20_000)))
                    .build())
            .succeeded());
    assertEquals(
        List.of("Record 1001 ", "Record 1002 "),
        place.records().stream()
            .map(r -> RefusedOutput.TYPE.deserialize(r.value()).reason().substring(0, 12))
            .toList());
  }

  /** A shard key whose state alone passes the item, with a place: the batch fails naming state. */
  @Test
  void aShardKeyWhoseStateAloneIsTooLargeFailsClearly() {
    BatchPipeline pipeline = pipeline("state-alone", place, BatchFaultHook.NONE);
    pipeline.registerSplits(List.of("s/shardId-0"));
    assertTrue(
        pipeline
            .process(
                SourceBatch.ordered("s/shardId-0").add("1000", 0, utf8("k,state:300000")).build())
            .succeeded());
    RuntimeException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            RuntimeException.class,
            () ->
                pipeline.process(
                    SourceBatch.ordered("s/shardId-0")
                        .add("1001", 0, utf8("k," + "a".repeat(50_000)))
                        .add("1002", 0, utf8("k,grow:150000"))
                        .build()));
    assertTrue(e.getMessage().contains("Keep less per key"), e.getMessage());
    assertEquals(0, place.records().size());
  }

  /** A kept stand-in, then a deployment without a place: a clear error, nothing misrouted. */
  @Test
  void aKeptStandInWithoutAPlaceAfterRedeployFailsClearly() {
    BatchPipeline first = pipeline("redeploy-less", place, HotKeys.deliveriesFail(1));
    first.registerSplits(List.of("s/shardId-0"));
    SourceBatch batch =
        SourceBatch.ordered("s/shardId-0")
            .add("1000", 0, utf8("k1,a"))
            .add("1001", 0, utf8("k2," + "y".repeat(450_000)))
            .build();
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalStateException.class, () -> first.process(batch));
    BatchPipeline second = pipeline("redeploy-less", null, BatchFaultHook.NONE);
    second.registerSplits(List.of("s/shardId-0"));
    RuntimeException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            RuntimeException.class, () -> second.process(batch));
    assertTrue(e.getMessage().contains("no refusedOutputsTo"), e.getMessage());
    assertEquals(List.of(), output.texts());
  }

  /**
   * The same order on the plan's own output: record 1001 of key K (a small result) is given up (its
   * batch failed at delivery and Lambda moved on); the next batch carries K's result to its record
   * 1002, whose own 16 KB result and 1003's 20 KB one are set aside beside K's 395 KB state, and
   * 1004 emits a small result. The invocation dies before delivering; the retry delivers 1001's
   * result before 1004's. Moving 1002's outbox entry, with the carried result, to the end delivered
   * 1004's first.
   */
  @Test
  void carriedResultsKeepTheirPlaceBeforeLaterResultsAfterASetAsideAndARetry() {
    assertEquals(List.of("K:one", "K:four"), carriedThenRetried("carried", 395_000));
  }

  private static SourceBatch.Builder fifo(
      SourceBatch.Builder batch, String id, String group, String text) {
    return batch.add(id, 0, utf8(text), java.util.Map.of(SourceBatch.ORDER_GROUP, group));
  }

  /**
   * FIFO: key k holds 355 KB of state; group g's m1 (30 KB result) and m2 (29 KB), group h's m3
   * (29.5 KB). m1 goes back, the largest, and m2 behind it in its group; m3 fits once they are out
   * and is applied. Measured as if m2 stayed, m3 went back too and held group h on every delivery.
   */
  @Test
  void aFifoMessageThatFitsOnceTheGroupBehindTheHandedBackIsOutIsNotHandedBack() {
    BatchPipeline pipeline = pipeline("fifo-group", place, BatchFaultHook.NONE);
    assertEquals(
        List.of(),
        pipeline
            .process(fifo(SourceBatch.unordered("q.fifo"), "m0", "s", "k,state:355000").build())
            .failedOffsets());
    SourceBatch.Builder batch = SourceBatch.unordered("q.fifo");
    fifo(batch, "m1", "g", "k," + "a".repeat(30_000));
    fifo(batch, "m2", "g", "k," + "b".repeat(29_000));
    fifo(batch, "m3", "h", "k," + "c".repeat(29_500));
    fifo(batch, "m4", "i", "other,x");
    BatchResult result = pipeline.process(batch.build());
    assertEquals(List.of("m1", "m2"), result.failedOffsets(), result.toString());
  }

  /** After a hand-back the pass runs again from the stored state: nothing of the message stays. */
  @Test
  void aHandedBackMessageLeavesNothingInStateOrOutputs() {
    CollectingEgressSink counted = new CollectingEgressSink();
    BatchPipeline pipeline =
        BatchPipeline.builder("residue", RefusedOutputsContract.counted(counted))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(place)
            .build();
    pipeline.process(SourceBatch.unordered("q").add("m0", 0, utf8("k,a")).build());
    BatchResult second =
        pipeline.process(
            SourceBatch.unordered("q")
                .add("m1", 0, utf8("k," + "z".repeat(420_000)))
                .add("m2", 0, utf8("k,b"))
                .build());
    BatchResult third =
        pipeline.process(
            SourceBatch.unordered("q")
                .add("m1", 0, utf8("k," + "y".repeat(300_000)))
                .add("m3", 0, utf8("k,c"))
                .build());
    assertEquals(List.of("m1"), second.failedOffsets(), second.toString());
    assertEquals(List.of("m3"), third.failedOffsets(), third.toString());
    // m1 was applied in the pass that handed it back: nothing of it stays, and its retry counts
    // after m2.
    assertEquals(
        List.of("k:1:a", "k:2:b", "k:3:y"),
        counted.texts().stream().map(t -> t.substring(0, 5)).toList());
  }

  /**
   * The controls of the carried reordering: without the set-aside (a small state), or without the
   * crash, K's results come in order.
   */
  @Test
  void carriedControlWithoutSetAside() {
    assertEquals(
        List.of("K:one", "K:aaa", "K:bbb", "K:fou"),
        carriedThenRetried("carried-control", 1000).stream().map(t -> t.substring(0, 5)).toList());
  }

  /**
   * A queue key: m1 with a 420 KB result (no item keeps it) and m2 with a small one: m1 goes back
   * at once and m2 is applied. m1 used to be applied as the key's first message, m2 went back for
   * the key's share, and the next pass sent m1 back: m2 went back with m1 on every delivery and
   * reached the dead-letter queue with it.
   */
  @Test
  void aSmallMessageBehindOneTooLargeOfItsKeyIsNotHandedBackEveryTime() {
    BatchPipeline pipeline =
        BatchPipeline.builder("innocent", RefusedOutputsContract.counted(output))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(place)
            .build();
    SourceBatch batch =
        SourceBatch.unordered("q")
            .add("m1", 0, utf8("k," + "z".repeat(420_000)))
            .add("m2", 0, utf8("k,b"))
            .build();
    for (int delivery = 1; delivery <= 3; delivery++) {
      BatchResult result = pipeline.process(batch);
      assertEquals(List.of("m1"), result.failedOffsets(), "delivery " + delivery + ": " + result);
    }
  }

  /**
   * K's state of {@code state} characters; record 1001's delivery fails until Lambda moves on; the
   * next batch (16 KB, 20 KB and a small result) dies before delivering and is retried: what the
   * output holds then.
   */
  private List<String> carriedThenRetried(String name, int state) {
    java.util.concurrent.atomic.AtomicBoolean down =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicBoolean crash =
        new java.util.concurrent.atomic.AtomicBoolean();
    InMemoryBatchStore timed = new InMemoryBatchStore(clock);
    BatchPipeline pipeline =
        BatchPipeline.builder(name, blobs())
            .store(timed)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .refusedOutputsTo(place)
            .faultHook(
                (step, detail) -> {
                  if (step == BatchFaultHook.Step.DELIVERY
                      && (down.get() || crash.getAndSet(false))) {
                    throw new IllegalStateException("no delivery");
                  }
                })
            .build();
    String shard = "s/shardId-0";
    pipeline.registerSplits(List.of(shard));
    assertTrue(
        pipeline
            .process(SourceBatch.ordered(shard).add("1000", 0, utf8("K,state:" + state)).build())
            .succeeded());
    clock.advance(Duration.ofSeconds(1));
    down.set(true);
    org.junit.jupiter.api.Assertions.assertThrows(
        RuntimeException.class,
        () -> pipeline.process(SourceBatch.ordered(shard).add("1001", 0, utf8("K,one")).build()));
    down.set(false);
    clock.advance(Duration.ofSeconds(1));
    SourceBatch live =
        SourceBatch.ordered(shard)
            .add("1002", 0, utf8("K," + "a".repeat(16_000)))
            .add("1003", 0, utf8("K," + "b".repeat(20_000)))
            .add("1004", 0, utf8("K,four"))
            .build();
    crash.set(true);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalStateException.class, () -> pipeline.process(live));
    clock.advance(Duration.ofSeconds(1));
    BatchResult retried = pipeline.process(live);
    assertTrue(retried.succeeded(), retried.toString());
    return output.texts();
  }
}
