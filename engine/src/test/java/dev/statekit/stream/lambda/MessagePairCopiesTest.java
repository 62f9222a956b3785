package dev.statekit.stream.lambda;

import static dev.statekit.stream.lambda.HotKeys.await;
import static dev.statekit.stream.lambda.HotKeys.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Copies of a message keyed to two keys ("x+y"), one key's write conflicting. */
class MessagePairCopiesTest {
  private static final String QUEUE = "orders-queue";
  private final ManualClock clock = new ManualClock(1_000_000);
  private final List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());

  private BatchPipeline sums(BatchStore store, BatchFaultHook hook) {
    EgressSink sink = every::addAll;
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, java.nio.charset.StandardCharsets.UTF_8))
            .<String>flatMap(
                (text, out) -> {
                  for (String key : text.substring(text.indexOf(':') + 1).split("\\+")) {
                    out.collect(key + "=1");
                  }
                })
            .keyBy(sum -> sum.substring(0, sum.indexOf('=')))
            .reduce(
                (a, b) ->
                    a.substring(0, a.indexOf('='))
                        + "="
                        + (Long.parseLong(a.substring(a.indexOf('=') + 1))
                            + Long.parseLong(b.substring(b.indexOf('=') + 1))),
                Serdes.string())
            .to(EgressOutput.to(sink, TypeName.of("test", "sums"), Types.stringType()));
    return BatchPipeline.builder("sums", plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .faultHook(hook)
        .build();
  }

  /** Message {@code id} with body {@code id:keys}. */
  private SourceBatch queue(String id, String keys) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    batch.add(
        id, clock.millis(), (id + ":" + keys).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return batch.build();
  }

  /**
   * B reads x and y (m new to both); C writes y; B's write of x lands (m new, B's entry), y
   * conflicts; B waits at its fresh read of y. A (a copy of m) runs whole: x holds m pending (B's),
   * y fresh: A applies m to y, writes the receipt. A2 on A's instance drops m from x and y. B goes
   * on: finds m receipted. Then every key's last sum must count each message once.
   */
  @Test
  void aPairWhoseOtherKeyLandedIsAppliedOnceWithOneValuePerId() throws Exception {
    InMemoryBatchStore inner = new InMemoryBatchStore(clock);
    AtomicInteger reads = new AtomicInteger();
    CountDownLatch bFresh = new CountDownLatch(1);
    CountDownLatch bGo = new CountDownLatch(1);
    CountDownLatch bLoaded = new CountDownLatch(1);
    CountDownLatch bWrite = new CountDownLatch(1);
    BatchStore slow =
        (BatchStore)
            Proxy.newProxyInstance(
                BatchStore.class.getClassLoader(),
                new Class<?>[] {BatchStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("readKeys") && reads.incrementAndGet() == 2) {
                    bFresh.countDown();
                    await(bGo);
                  }
                  try {
                    return method.invoke(inner, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    BatchPipeline b = sums(slow, HotKeys.pauseAt(BatchFaultHook.Step.LOADED, bLoaded, bWrite));
    BatchPipeline a = sums(inner, BatchFaultHook.NONE);
    AtomicReference<Object> bResult = new AtomicReference<>();
    Thread tb = new Thread(() -> bResult.set(run(b, queue("m", "x+y"))));
    tb.start();
    await(bLoaded);
    Object c = run(sums(inner, BatchFaultHook.NONE), queue("c", "y")); // y=1
    bWrite.countDown();
    await(bFresh); // x landed with m (x=1), y conflicted
    Object aResult = run(a, queue("m", "x+y")); // x: m pending, y: m new (y=2), receipt
    Object a2 = run(a, queue("m2", "x+y")); // drops m: x=2, y=3
    bGo.countDown();
    tb.join();
    Object d = run(sums(inner, BatchFaultHook.NONE), queue("m3", "x+y")); // x=3, y=4
    check("c " + c + ", A " + aResult + ", A2 " + a2 + ", B " + bResult.get() + ", D " + d, 3, 4);
  }

  private void check(String why, long x, long y) {
    Map<String, Set<String>> valuesById = new TreeMap<>();
    Map<String, Long> last = new TreeMap<>();
    for (EgressRecord record : every) {
      String text = record.textOrBase64();
      valuesById.computeIfAbsent(record.id(), i -> new TreeSet<>()).add(text);
      String key = text.substring(0, text.indexOf('='));
      last.merge(key, Long.parseLong(text.substring(text.indexOf('=') + 1)), Math::max);
    }
    String all = "outputs " + valuesById + "; " + why;
    valuesById.forEach((id, values) -> assertEquals(1, values.size(), "output " + id + ": " + all));
    assertEquals(Map.of("x", x, "y", y), last, all);
  }
}
