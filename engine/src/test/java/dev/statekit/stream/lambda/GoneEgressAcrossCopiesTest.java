package dev.statekit.stream.lambda;

import static dev.statekit.stream.lambda.HotKeys.await;
import static dev.statekit.stream.lambda.HotKeys.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressRecord;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A queue message whose kept outputs name an egress the deployment lacks goes back alone, with the
 * messages after it of its FIFO order group, also when another copy of it ran at once: found
 * receipted meanwhile, or pending on a key whose write conflicted.
 */
class GoneEgressAcrossCopiesTest {
  private static final String QUEUE = "orders-queue";
  private static final TypeName COUNTS = TypeName.of("test", "counts");
  private static final TypeName RENAMED = TypeName.of("test", "renamed");
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());

  private final ManualClock clock = new ManualClock(1_000_000);

  private static SourceBatch fifo(String... messages) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (String message : messages) {
      String[] parts = message.split("=", 3); // id=group=body
      batch.add(
          parts[0],
          1_000_000,
          parts[2].getBytes(StandardCharsets.UTF_8),
          Map.of(SourceBatch.ORDER_GROUP, parts[1]));
    }
    return batch.build();
  }

  private static SourceBatch queue(String... messages) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (String message : messages) {
      String[] parts = message.split("=", 2); // id=body
      batch.add(parts[0], 1_000_000, parts[1].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private static List<String> texts(List<EgressRecord> records) {
    synchronized (records) {
      return records.stream().map(r -> r.egress() + " " + r.textOrBase64()).toList();
    }
  }

  /**
   * FIFO variant of
   * MessageCopiesTest#aMessageReceiptedMeanwhileUnderAnEgressTheDeploymentLacksGoesBack. Group g: m
   * then n. A (egress counts) applies m, writes m's receipt, but its delivery fails (the sink is
   * down once; the receipt write beside it still lands). A's instance confirms m with m2. B (egress
   * renamed) read before A wrote; after its conflict it finds m receipted meanwhile with an output
   * of an egress it lacks: m goes back. n comes after m in group g, so n must go back with it (as
   * on the receipt path and the pending path), else n's result goes out before m's.
   */
  @Test
  void fifoMessageReceiptedMeanwhileUnderAMissingEgressTakesItsGroupBack() throws Exception {
    String b = receiptedMeanwhile("m=g=m");
    assertTrue(b.startsWith("[m, n] "), "n is after m in group g and must go back with it; " + b);
  }

  /** As above with n receipted meanwhile too: each goes back, and is answered once. */
  @Test
  void twoOfAGroupReceiptedMeanwhileGoBackOnceEach() throws Exception {
    String b = receiptedMeanwhile("m=g=m", "n=g=n");
    assertTrue(b.startsWith("[m, n] "), b);
  }

  /**
   * B (egress renamed) takes m and n of group g, and reads before A (egress counts) applies {@code
   * first} and writes their receipts, its delivery failing once; A's instance then confirms them
   * with m2. B's write conflicts, and it finds them receipted meanwhile. Returns B's answer, with
   * what was delivered.
   */
  private String receiptedMeanwhile(String... first) throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());
    Meanwhile runs =
        whileBWaits(
            HotKeys.counts(store, clock, downOnce(every), BatchFaultHook.NONE),
            hook -> HotKeys.counts(store, clock, every::addAll, hook, RENAMED),
            fifo("m=g=m", "n=g=n"),
            fifo(first), // the key (pending) and receipts; delivery fails
            fifo("m2=h=m2")); // the receipts read: the entries go
    return runs.b() + "; outputs " + texts(every) + "; A: " + runs.a();
  }

  /** Down for its first delivery only (the receipts written beside it still land). */
  private static EgressSink downOnce(List<EgressRecord> every) {
    boolean[] down = {true};
    return records -> {
      if (down[0]) {
        down[0] = false;
        throw new IllegalStateException("sink down");
      }
      every.addAll(records);
    };
  }

  /** What B answered, and what A answered to each of its batches. */
  private record Meanwhile(Object b, List<Object> a) {}

  /**
   * B (deployed with the fault hook given) takes {@code bBatch} and, once it has read, waits while
   * A runs {@code aBatches}; then B goes on.
   */
  private static Meanwhile whileBWaits(
      BatchPipeline a,
      java.util.function.Function<BatchFaultHook, BatchPipeline> b,
      SourceBatch bBatch,
      SourceBatch... aBatches)
      throws InterruptedException {
    CountDownLatch bLoaded = new CountDownLatch(1);
    CountDownLatch bGo = new CountDownLatch(1);
    BatchPipeline paused = b.apply(HotKeys.pauseAt(BatchFaultHook.Step.LOADED, bLoaded, bGo));
    AtomicReference<Object> bResult = new AtomicReference<>();
    Thread tb = new Thread(() -> bResult.set(run(paused, bBatch)));
    tb.start();
    await(bLoaded); // B read: no receipts, no key
    List<Object> aResults = new ArrayList<>();
    for (SourceBatch batch : aBatches) {
      aResults.add(run(a, batch));
    }
    bGo.countDown();
    tb.join();
    return new Meanwhile(bResult.get(), aResults);
  }

  /**
   * Conflict re-run path, FIFO group g: m (key k1) then p (key k3). B (renamed) reads first. A copy
   * of m in A (egress counts) writes k1 (m pending) and dies before delivering and writing
   * receipts. B's k1 write conflicts; its re-run finds m pending under counts: m goes back with p.
   * But B's first pass already applied p to k3 (written) and its result goes out now, while m's
   * kept result waits for a deployment with counts: group g's results out of order. Expected: no
   * result of p delivered by B (it goes back; k3 keeps it pending and delivers it again when p
   * comes).
   */
  @Test
  void aGroupsLaterResultsWaitForAMessageGoneBackOnAConflictAndAfter() throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());
    EgressSink sink = every::addAll;
    CountDownLatch bLoaded = new CountDownLatch(1);
    CountDownLatch bGo = new CountDownLatch(1);
    BatchPipeline a = deploy(store, sink, COUNTS, HotKeys.deliveriesFail(1));
    BatchPipeline b =
        deploy(store, sink, RENAMED, HotKeys.pauseAt(BatchFaultHook.Step.LOADED, bLoaded, bGo));
    AtomicReference<Object> bResult = new AtomicReference<>();
    Thread tb = new Thread(() -> bResult.set(run(b, fifo("m=g=k1", "p=g=k3"))));
    tb.start();
    await(bLoaded);
    Object aResult = run(a, fifo("m=g=k1")); // k1 written (m pending), dies before delivering
    bGo.countDown();
    tb.join();
    String why = "outputs " + texts(every) + "; A: " + aResult + ", B: " + bResult.get();
    assertTrue(bResult.get().toString().startsWith("[m, p] "), why);
    assertEquals(List.of(), texts(every), "p's result went out before m's; " + why);

    // Handed over again with z of another group on k3: m still waits for egress counts, p with it,
    // and p's result, pending on k3, stays there while z's goes out.
    BatchResult retry =
        deploy(store, sink, RENAMED, BatchFaultHook.NONE)
            .process(fifo("m=g=k1", "p=g=k3", "z=h=k3"));
    assertEquals(List.of("m", "p"), retry.failedOffsets(), retry.toString());
    assertEquals(List.of("test/renamed k3:2"), texts(every), "p's result went out before m's");
    every.clear();

    // k3 kept p's result (under B's egress): when p comes again alone, it goes out, p applied once.
    BatchResult again =
        deploy(store, sink, RENAMED, BatchFaultHook.NONE).process(fifo("p=g=k3", "q=g=k3"));
    assertTrue(again.succeeded(), again.toString());
    assertEquals(List.of("test/renamed k3:1", "test/renamed k3:3"), texts(every));
  }

  /** Bodies "k1+k2" make one keyed record per key; each key counts, outputs "key:count". */
  private Pipeline pairs(EgressSink sink, TypeName egress) {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8))
        .<String>flatMap(
            (text, out) -> {
              for (String key : text.split("\\+")) {
                out.collect(key);
              }
            })
        .keyBy(k -> k)
        .<String>process(
            (record, context, out) -> {
              ValueState<Long> seen = context.state(SEEN);
              long count = seen.value() == null ? 1 : seen.value() + 1;
              seen.update(count);
              out.collect(record.value() + ":" + count);
            },
            SEEN)
        .to(EgressOutput.to(sink, egress, Types.stringType()));
  }

  private BatchPipeline deploy(
      InMemoryBatchStore store, EgressSink sink, TypeName egress, BatchFaultHook hook) {
    BatchPipeline pipeline =
        BatchPipeline.builder("pairs", pairs(sink, egress))
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(hook)
            .build();
    pipeline.registerSplits(List.of(QUEUE));
    return pipeline;
  }

  /**
   * m is keyed to k1 and k2. The first deployment dies after writing k1 (not k2). The renamed
   * deployment gets m with other messages of both keys: m goes back alone; k2 must not keep m's
   * part (m is applied to k2 once, later). With the egress back, m's kept k1 result goes out, k2
   * applies m once.
   */
  @Test
  void messageOfTwoKeysPendingOnOneOnlyGoesBackWithoutApplyingTheOther() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());
    EgressSink sink = every::addAll;
    BatchFaultHook k2Dies =
        (step, detail) -> {
          if (step == BatchFaultHook.Step.KEY_WRITE && detail.contains("k2")) {
            throw new IllegalStateException("died before k2");
          }
        };
    assertThrows(
        IllegalStateException.class,
        () -> deploy(store, sink, COUNTS, k2Dies).process(queue("m=k1+k2")));
    every.clear();

    BatchPipeline renamed = deploy(store, sink, RENAMED, BatchFaultHook.NONE);
    BatchResult r = renamed.process(queue("a=k2", "m=k2+k1", "b=k1+k2"));
    assertEquals(List.of("m"), r.failedOffsets(), r.toString());
    assertEquals(
        List.of("test/renamed k1:2", "test/renamed k2:1", "test/renamed k2:2"),
        texts(every).stream().sorted().toList());

    every.clear();
    BatchResult back = deploy(store, sink, COUNTS, BatchFaultHook.NONE).process(queue("m=k2+k1"));
    assertTrue(back.succeeded(), back.toString());
    assertEquals(
        List.of("test/counts k1:1", "test/counts k2:3"), texts(every).stream().sorted().toList());
    every.clear();
    deploy(store, sink, COUNTS, BatchFaultHook.NONE).process(queue("z=k1+k2"));
    assertEquals(
        List.of("test/counts k1:3", "test/counts k2:4"), texts(every).stream().sorted().toList());
  }

  /**
   * The pending message is not its key's first record in the batch; FIFO group g: x (k1) before m
   * (k1), y (k2) after m. x is applied, m and y go back, another group's z is applied.
   */
  @Test
  void pendingMessageNotFirstOfItsKeyInAFifoBatch() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());
    EgressSink sink = every::addAll;
    assertThrows(
        IllegalStateException.class,
        () -> deploy(store, sink, COUNTS, HotKeys.deliveriesFail(1)).process(fifo("m=g=k1")));
    BatchPipeline renamed = deploy(store, sink, RENAMED, BatchFaultHook.NONE);
    BatchResult r = renamed.process(fifo("x=g=k1", "z=h=k1+k3", "m=g=k1", "y=g=k2"));
    assertEquals(List.of("m", "y"), r.failedOffsets(), r.toString());
    assertEquals(
        List.of("test/renamed k1:2", "test/renamed k1:3", "test/renamed k3:1"),
        texts(every).stream().sorted().toList());
    every.clear();
    BatchResult back =
        deploy(store, sink, COUNTS, BatchFaultHook.NONE).process(fifo("m=g=k1", "y=g=k2"));
    assertTrue(back.succeeded(), back.toString());
    assertEquals(
        List.of("test/counts k1:1", "test/counts k2:1"), texts(every).stream().sorted().toList());
  }

  /**
   * Counts messages per key; the counts of keys starting with "!" are dead letters (to egress
   * {@code dead}), the others go to egress counts. Both outputs go to {@code sink}.
   */
  private BatchPipeline twoOutputs(InMemoryBatchStore store, EgressSink sink, TypeName dead) {
    return twoOutputs(store, sink, dead, BatchFaultHook.NONE);
  }

  private BatchPipeline twoOutputs(
      InMemoryBatchStore store, EgressSink sink, TypeName dead, BatchFaultHook hook) {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .keyBy(k -> k)
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> seen = context.state(SEEN);
                  long count = seen.value() == null ? 1 : seen.value() + 1;
                  seen.update(count);
                  out.collect(record.value() + ":" + count);
                },
                SEEN)
            .<String>process(
                "check",
                (record, out) -> {
                  if (record.value().startsWith("!")) {
                    throw new IllegalArgumentException("refused " + record.value());
                  }
                  out.collect(record.value());
                },
                dev.statekit.stream.FailurePolicy.deadLetter(
                    EgressOutput.to(
                        sink,
                        dead,
                        Types.simple(
                            TypeName.of("test", "dead-letter"),
                            (dev.statekit.stream.DeadLetter<String> d) ->
                                d.record().value().getBytes(StandardCharsets.UTF_8),
                            bytes -> {
                              throw new UnsupportedOperationException();
                            }))))
            .to(EgressOutput.to(sink, COUNTS, Types.stringType()));
    BatchPipeline pipeline =
        BatchPipeline.builder("two", plan)
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(hook)
            .build();
    pipeline.registerSplits(List.of(QUEUE));
    return pipeline;
  }

  /**
   * FIFO group g: m (a dead letter) then n (a count). The first deployment applies both and writes
   * their receipts, but its delivery fails: neither result went out. The next deployment renamed
   * the dead letters' egress: m goes back, and n must go back with it, its kept result not
   * delivered (reported done, SQS would delete n and hand m over again after it). Before, n's
   * result went out and n was reported done.
   */
  @Test
  void aGroupsLaterReceiptWaitsForAnEarlierOneWhoseEgressIsGone() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());
    boolean[] down = {true};
    EgressSink flaky =
        records -> {
          if (down[0]) {
            throw new IllegalStateException("sink down");
          }
          every.addAll(records);
        };
    TypeName dead = TypeName.of("test", "dead");
    Object first = run(twoOutputs(store, flaky, dead), fifo("m=g=!x", "n=g=k1"));
    assertTrue(first instanceof RuntimeException, "the first delivery failed: " + first);
    down[0] = false;

    BatchResult renamed =
        twoOutputs(store, flaky, TypeName.of("test", "dead-renamed"))
            .process(fifo("m=g=!x", "n=g=k1", "z=h=k2"));
    assertEquals(List.of("m", "n"), renamed.failedOffsets(), renamed.toString());
    assertEquals(List.of("test/counts k2:1"), texts(every), "n's result went out before m's");

    every.clear();
    BatchResult back = twoOutputs(store, flaky, dead).process(fifo("m=g=!x", "n=g=k1"));
    assertTrue(back.succeeded(), back.toString());
    assertEquals(List.of("test/dead !x:1", "test/counts k1:1"), texts(every));
  }

  /**
   * As above, with both found receipted meanwhile: B (dead letters renamed) reads before A applies
   * m and n and writes their receipts, A's delivery failing; A's instance then confirms them. B's
   * write conflicts and it finds both receipted: m goes back, and n with it (SQS would otherwise
   * delete n and hand m over again after it), its result kept. Before, B delivered n's kept result
   * and reported n done.
   */
  @Test
  void aGroupsLaterMessageReceiptedMeanwhileWaitsForAnEarlierOneWhoseEgressIsGone()
      throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<EgressRecord> fromA = Collections.synchronizedList(new ArrayList<>());
    List<EgressRecord> fromB = Collections.synchronizedList(new ArrayList<>());
    TypeName renamed = TypeName.of("test", "dead-renamed");
    Meanwhile runs =
        whileBWaits(
            twoOutputs(store, downOnce(fromA), TypeName.of("test", "dead"), BatchFaultHook.NONE),
            hook -> twoOutputs(store, fromB::addAll, renamed, hook),
            fifo("m=g=!x", "n=g=k1"),
            fifo("m=g=!x", "n=g=k1"), // receipts written, delivery fails
            fifo("z=h=k2")); // the receipts read: the keys' entries go
    assertTrue(runs.b().toString().startsWith("[m, n] "), runs.toString());
    assertEquals(List.of(), texts(fromB), "B delivered n's kept result while m went back");
  }
}
