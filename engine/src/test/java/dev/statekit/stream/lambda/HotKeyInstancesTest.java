package dev.statekit.stream.lambda;

import static dev.statekit.stream.lambda.HotKeys.await;
import static dev.statekit.stream.lambda.HotKeys.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.testing.ManualClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A hot queue key written by several execution environments at once: a message one invocation found
 * pending stays applied when it runs the key again after a conflicting write, though another
 * invocation dropped the pending entry meanwhile; a key that several warm instances take turns on
 * never passes the item limit; and a warm instance reads receipts once per batch.
 */
class HotKeyInstancesTest {
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
   * Message m is applied by invocation A (instance a), which writes key "hot" (m pending) and then
   * its receipt. SQS hands m over again (visibility timeout while A runs) to invocation B (instance
   * b): B reads m's receipt before A writes it (none) and the key after A wrote it (m pending: a
   * repeat). Meanwhile invocation C on a new instance c has message m2 for the same key: it reads
   * the receipt of the pending m (a new instance reads those of its keys' pending messages), drops
   * m's pending entry and writes the key. B's write conflicts; its re-run reads the fresh key,
   * which no longer holds m as pending: without what B's first pass found, m was applied to the key
   * a second time (its output has the same egress id as A's, so the sink hides it). A later message
   * m3 must read count 3.
   */
  @Test
  void aMessageHandedOverAgainIsNotAppliedTwiceWhenANewInstanceConfirmsItsPendingEntry()
      throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    CountDownLatch aFlushed = new CountDownLatch(1);
    CountDownLatch aGo = new CountDownLatch(1);
    CountDownLatch bLoaded = new CountDownLatch(1);
    CountDownLatch bGo = new CountDownLatch(1);
    BatchPipeline a = counts(store, HotKeys.pauseAt(BatchFaultHook.Step.DELIVERY, aFlushed, aGo));
    BatchPipeline b = counts(store, HotKeys.pauseAt(BatchFaultHook.Step.LOADED, bLoaded, bGo));
    BatchPipeline c = counts(store, BatchFaultHook.NONE);
    AtomicReference<Object> aResult = new AtomicReference<>();
    AtomicReference<Object> bResult = new AtomicReference<>();
    Thread ta = new Thread(() -> aResult.set(run(a, queue(clock.millis(), "m"))));
    ta.start();
    await(aFlushed); // A wrote the key (m pending), not yet m's receipt
    Thread tb = new Thread(() -> bResult.set(run(b, queue(clock.millis(), "m"))));
    tb.start();
    await(bLoaded); // B read: no receipt for m, the key with m pending
    aGo.countDown();
    ta.join(); // A wrote m's receipt
    Object cResult = run(c, queue(clock.millis(), "m2")); // drops m's pending entry
    bGo.countDown();
    tb.join();
    // One more message, on a fresh instance: the key's count after m, m2 and m3 is 3.
    Object dResult = run(counts(store, BatchFaultHook.NONE), queue(clock.millis(), "m3"));
    List<String> texts = results.texts();
    assertEquals(
        "3",
        texts.get(texts.size() - 1),
        "outputs "
            + texts
            + "; A: "
            + aResult.get()
            + ", B: "
            + bResult.get()
            + ", C: "
            + cResult
            + ", D: "
            + dResult);
  }

  /**
   * A hot queue key on several warm instances taking batches in turn (Lambda scales an SQS mapping
   * out): each instance's cached item is stale, so its write conflicts and the key runs again on
   * the fresh item, without the share, beside the pending entries of the other instances' batches
   * that this one cannot confirm. No batch may be refused at the item limit.
   */
  @Test
  void aHotQueueKeyOnWarmInstancesTakingTurnsIsNeverRefused() {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<BatchPipeline> instances = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      instances.add(counts(store, BatchFaultHook.NONE));
    }
    List<String> waiting = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      waiting.add(String.format("%08x-0000-4000-8000-%012d", i, i));
    }
    int batches = 0;
    List<String> refused = new ArrayList<>();
    while (!waiting.isEmpty() && batches < 40) {
      BatchPipeline warm = instances.get(batches % instances.size());
      batches++;
      try {
        waiting =
            new ArrayList<>(
                warm.process(queue(clock.millis(), waiting.toArray(String[]::new)))
                    .failedOffsets());
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
            + waiting.size()
            + " waiting; first: "
            + (refused.isEmpty() ? "-" : refused.get(0)));
  }

  /**
   * Steady state, two warm instances taking turns on a queue whose messages touch a few shared
   * keys: one receipts read per batch (its messages and the pending ids of its keys it does not
   * know).
   */
  @Test
  void aWarmQueueBatchReadsReceiptsOnceAndOnceMorePerConflict() {
    InMemoryBatchStore inner = new InMemoryBatchStore(clock);
    AtomicInteger reads = new AtomicInteger();
    BatchStore store =
        (BatchStore)
            Proxy.newProxyInstance(
                BatchStore.class.getClassLoader(),
                new Class<?>[] {BatchStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("readReceipts")) {
                    reads.incrementAndGet();
                  }
                  try {
                    return method.invoke(inner, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    List<BatchPipeline> instances =
        List.of(counts(store, BatchFaultHook.NONE), counts(store, BatchFaultHook.NONE));
    int next = 0;
    for (int round = 0; round < 10; round++) { // warm up
      instances.get(round % 2).process(queue(clock.millis(), "w" + next++, "w" + next++));
      clock.advance(Duration.ofSeconds(1));
    }
    reads.set(0);
    int batches = 20;
    for (int round = 0; round < batches; round++) {
      assertTrue(
          instances
              .get(round % 2)
              .process(queue(clock.millis(), "m" + next++, "m" + next++))
              .succeeded());
      clock.advance(Duration.ofSeconds(1));
    }
    // One with each batch, and one more after the fresh read of a key whose write conflicted (two
    // instances taking turns on the same keys conflict on every batch): a copy of a message may
    // have applied it meanwhile.
    assertEquals(2 * batches, reads.get(), "readReceipts calls for " + batches + " batches");
  }
}
