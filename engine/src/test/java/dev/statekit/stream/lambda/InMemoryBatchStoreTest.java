package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InMemoryBatchStoreTest extends BatchStoreContract {
  private final BatchStore store = new InMemoryBatchStore();

  @Override
  BatchStore store() {
    return store;
  }

  @Test
  void expiredReceiptsAreDroppedWhileOtherSplitsAreWrittenAndLiveOnesKept() {
    InMemoryBatchStore store =
        new InMemoryBatchStore(Clock.fixed(Instant.ofEpochSecond(1_000), ZoneOffset.UTC));
    store.writeReceipts("p", "expired", Map.of("m", new byte[] {1}), 999);
    store.writeReceipts("p", "live", Map.of("m", new byte[] {2}), 1_001);
    store.writeReceipts("p", "forever", Map.of("m", new byte[] {3}), 0);
    store.writeReceipts("q", "expired", Map.of("m", new byte[] {4}), 2_000);
    for (int batch = 0; batch < 11; batch++) {
      Map<String, byte[]> written = new HashMap<>();
      for (int i = 0; i < 1_000; i++) {
        written.put("m" + batch + "-" + i, new byte[0]);
      }
      store.writeReceipts("other", "queue-" + batch % 3, written, 999);
    }
    assertEquals(Map.of(), store.readReceipts("p", "expired", List.of("m")));
    assertEquals(Set.of("m"), store.readReceipts("p", "live", List.of("m")).keySet());
    assertEquals(Set.of("m"), store.readReceipts("p", "forever", List.of("m")).keySet());
    assertEquals(Set.of("m"), store.readReceipts("q", "expired", List.of("m")).keySet());
  }

  /** Writers in several threads, each over the version it read: every increment lands once. */
  @Test
  void conditionalWritesFromManyThreadsLoseNothing() throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore();
    ExecutorService threads = Executors.newFixedThreadPool(6);
    AtomicInteger applied = new AtomicInteger();
    List<Future<?>> running = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(6);
    for (int t = 0; t < 6; t++) {
      String pipeline = "p" + t % 2;
      String operator = "op" + (t / 2) % 2; // two threads per scope, scopes sharing maps
      running.add(
          threads.submit(
              () -> {
                start.countDown();
                start.await();
                for (int i = 0; i < 30_000; i++) {
                  String key = "k" + i % 2;
                  KeyItem read = store.readKeys(pipeline, operator, List.of(key)).get(key);
                  long version = read == null ? 0 : read.version();
                  Set<String> conflicts =
                      store.writeKeys(
                          pipeline, operator, List.of(new KeyWrite(key, version, null, null, 0)));
                  if (conflicts.isEmpty()) {
                    applied.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    for (Future<?> thread : running) {
      thread.get(60, TimeUnit.SECONDS);
    }
    threads.shutdown();
    long versions = 0;
    for (String pipeline : List.of("p0", "p1")) {
      for (String operator : List.of("op0", "op1")) {
        for (KeyItem item : store.readKeys(pipeline, operator, List.of("k0", "k1")).values()) {
          versions += item.version();
        }
      }
    }
    assertEquals(applied.get(), versions, "each applied write is one version, none lost");
  }
}
