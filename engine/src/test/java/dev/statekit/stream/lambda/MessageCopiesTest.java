package dev.statekit.stream.lambda;

import static dev.statekit.stream.lambda.HotKeys.await;
import static dev.statekit.stream.lambda.HotKeys.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two copies of one queue message running at once in two execution environments (SQS hands a
 * message over again while its first attempt runs), while the first copy's instance confirms it and
 * drops its pending entry: the second copy must find it applied, whether it learns so from its
 * key's write conflicting or from the receipt it reads after its keys.
 */
class MessageCopiesTest {
  private static final String QUEUE = "orders-queue";

  private final CollectingEgressSink results = new CollectingEgressSink();
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline counts(BatchStore store, BatchFaultHook hook) {
    return HotKeys.counts(store, clock, results, hook);
  }

  private static SourceBatch queue(long at, String... ids) {
    return HotKeys.queue(QUEUE, at, ids);
  }

  /**
   * SQS hands message m to invocation B (instance b) while invocation A (instance a) still runs it.
   * B reads first: no receipt for m, the key without m. A then writes the key (m pending) and m's
   * receipt, and A's instance takes message m2 for the same key: it knows m confirmed and drops m's
   * pending entry. B's pass applied m (new to the key it read); its write conflicts, and the re-run
   * on the fresh item finds neither m pending nor m carried (B's pass never saw it pending) nor its
   * receipt (the conflict path reads receipts of other messages only): m is applied a second time.
   * A later message m3 must read count 3.
   */
  @Test
  void aMessageWhoseReceiptAppearsBeforeTheConflictIsNotAppliedTwice() throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    CountDownLatch bLoaded = new CountDownLatch(1);
    CountDownLatch bGo = new CountDownLatch(1);
    BatchPipeline a = counts(store, BatchFaultHook.NONE);
    BatchPipeline b = counts(store, HotKeys.pauseAt(BatchFaultHook.Step.LOADED, bLoaded, bGo));
    AtomicReference<Object> bResult = new AtomicReference<>();
    Thread tb = new Thread(() -> bResult.set(run(b, queue(clock.millis(), "m"))));
    tb.start();
    await(bLoaded); // B read: no receipt for m, no key
    Object aResult = run(a, queue(clock.millis(), "m")); // key (m pending), then m's receipt
    Object a2Result = run(a, queue(clock.millis(), "m2")); // m confirmed here: its entry goes
    bGo.countDown();
    tb.join();
    Object dResult = run(counts(store, BatchFaultHook.NONE), queue(clock.millis(), "m3"));
    List<String> texts = results.texts();
    assertEquals(
        "3",
        texts.get(texts.size() - 1),
        "outputs "
            + texts
            + "; A: "
            + aResult
            + ", A2: "
            + a2Result
            + ", B: "
            + bResult.get()
            + ", D: "
            + dResult);
  }

  /**
   * As above, with message m0 applied by A before m: B's first pass computed m's output on the key
   * it read first (count 1), A's receipt holds it on the key after m0 (count 2). B finds m
   * receipted after its conflicting write and delivers the receipt's output again; the output its
   * first pass computed on the stale item must not go out too, under the same id with another value
   * (the deterministic simulator found that in seeds 1 and 5 of its shared-instance runs).
   */
  @Test
  void aMessageReceiptedMeanwhileGoesOutWithItsReceiptsValueOnly() throws Exception {
    List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());
    String b = receiptedMeanwhile(new InMemoryBatchStore(clock), every::addAll, COUNTS, "m");
    Map<String, Set<String>> valuesById = new TreeMap<>();
    for (EgressRecord record : every) {
      valuesById.computeIfAbsent(record.id(), id -> new TreeSet<>()).add(record.textOrBase64());
    }
    String why = "outputs " + valuesById + "; " + b;
    assertTrue(b.startsWith("B: ok;"), why);
    assertEquals(4, every.size(), why); // m's receipt delivered again by B
    valuesById.forEach((id, values) -> assertEquals(1, values.size(), "output " + id + ": " + why));
  }

  /**
   * As above, with B a deployment that renamed the counts' egress: the receipt B finds after its
   * conflicting write keeps an output of an egress B lacks. B hands m back alone (it neither
   * applies m again nor fails whole), and a deployment with the egress delivers m's kept count
   * later.
   */
  @Test
  void aMessageReceiptedMeanwhileUnderAnEgressTheDeploymentLacksGoesBack() throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());
    EgressSink sink = every::addAll;
    String b = receiptedMeanwhile(store, sink, TypeName.of("test", "renamed"), "m", "n");
    String why = "outputs " + every + "; " + b;
    assertTrue(b.startsWith("B: [m] "), why);
    assertEquals(
        List.of("test/counts 1", "test/counts 2", "test/counts 3", "test/renamed 4"),
        every.stream().map(r -> r.egress() + " " + r.textOrBase64()).toList(),
        why);
    every.clear();
    Object dResult = run(HotKeys.counts(store, clock, sink, BatchFaultHook.NONE), queue(1, "m"));
    assertEquals("ok", dResult);
    assertEquals(
        List.of("test/counts 2"),
        every.stream().map(r -> r.egress() + " " + r.textOrBase64()).toList());
  }

  private static final TypeName COUNTS = TypeName.of("test", "counts");

  /**
   * B (delivering to {@code egress}) takes {@code messages} and reads before A (egress counts)
   * applies m0 and m (m's output: count 2) and confirms m with m2. B's write then conflicts, and it
   * finds m receipted meanwhile. Returns B's answer, then A's two.
   */
  private String receiptedMeanwhile(
      InMemoryBatchStore store, EgressSink sink, TypeName egress, String... messages)
      throws Exception {
    CountDownLatch bLoaded = new CountDownLatch(1);
    CountDownLatch bGo = new CountDownLatch(1);
    BatchPipeline a = HotKeys.counts(store, clock, sink, BatchFaultHook.NONE);
    BatchPipeline b =
        HotKeys.counts(
            store, clock, sink, HotKeys.pauseAt(BatchFaultHook.Step.LOADED, bLoaded, bGo), egress);
    AtomicReference<Object> bResult = new AtomicReference<>();
    Thread tb = new Thread(() -> bResult.set(run(b, queue(clock.millis(), messages))));
    tb.start();
    await(bLoaded); // B read: no receipt for m, no key
    Object aResult = run(a, queue(clock.millis(), "m0", "m")); // m's output: count 2
    Object a2Result = run(a, queue(clock.millis(), "m2")); // m confirmed here: its entry goes
    bGo.countDown();
    tb.join();
    return "B: " + bResult.get() + "; A: " + aResult + ", A2: " + a2Result;
  }

  /**
   * On a store whose calls wait (DynamoDB), a batch's first reads ran at once: invocation B (a
   * second copy of message m) read m's receipt before A wrote it (none), and the key after A's
   * instance dropped m's pending entry (it took m2 and knew m confirmed). B applied m to a key that
   * already held it, with no conflict at all (the key it read was the latest). Receipts are now
   * read after the keys; here B's key read starts before A and ends after it. A later message m3
   * must read count 3.
   */
  @Test
  void aMessageWhoseReceiptIsReadBeforeItsKeyIsNotAppliedTwice() throws Exception {
    InMemoryBatchStore inner = new InMemoryBatchStore(clock);
    CountDownLatch bReading = new CountDownLatch(1);
    CountDownLatch bReceipts = new CountDownLatch(1);
    CountDownLatch bKeys = new CountDownLatch(1);
    BatchStore slow =
        (BatchStore)
            Proxy.newProxyInstance(
                BatchStore.class.getClassLoader(),
                new Class<?>[] {BatchStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("readKeys")) {
                    bReading.countDown();
                    await(bKeys);
                  }
                  try {
                    return method.invoke(inner, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  } finally {
                    if (method.getName().equals("readReceipts")) {
                      bReceipts.countDown();
                    }
                  }
                });
    BatchPipeline a = counts(inner, BatchFaultHook.NONE);
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> "1")
            .keyBy(one -> "hot")
            .reduce((x, y) -> Long.toString(Long.parseLong(x) + Long.parseLong(y)), Serdes.string())
            .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
    BatchPipeline b =
        BatchPipeline.builder("counts", plan)
            .store(slow)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .concurrency(BatchConcurrency.threads(16))
            .build();
    AtomicReference<Object> bResult = new AtomicReference<>();
    Thread tb = new Thread(() -> bResult.set(run(b, queue(clock.millis(), "m"))));
    tb.start();
    await(bReading); // B's key read has started and waits
    // A receipt read beside the key read (as before) has finished by now; one after it has not
    // started, and this wait runs out.
    bReceipts.await(2, java.util.concurrent.TimeUnit.SECONDS);
    Object aResult = run(a, queue(clock.millis(), "m")); // key (m pending), then m's receipt
    Object a2Result = run(a, queue(clock.millis(), "m2")); // m confirmed here: its entry goes
    bKeys.countDown();
    tb.join();
    Object dResult = run(counts(inner, BatchFaultHook.NONE), queue(clock.millis(), "m3"));
    List<String> texts = results.texts();
    assertEquals(
        "3",
        texts.get(texts.size() - 1),
        "outputs "
            + texts
            + "; A: "
            + aResult
            + ", A2: "
            + a2Result
            + ", B: "
            + bResult.get()
            + ", D: "
            + dResult);
  }
}
