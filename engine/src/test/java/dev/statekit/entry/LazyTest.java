package dev.statekit.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LazyTest {
  @Test
  void nothingIsBuiltUntilAskedThenOnce() {
    AtomicInteger built = new AtomicInteger();
    Lazy<Object> lazy = Lazy.of(() -> new Object[] {built.incrementAndGet()});

    assertFalse(lazy.isBuilt());
    assertEquals(0, built.get());
    Object first = lazy.get();
    assertSame(first, lazy.get());
    assertTrue(lazy.isBuilt());
    assertEquals(1, built.get());
  }

  @Test
  void concurrentFirstCallsBuildOnce() throws Exception {
    AtomicInteger built = new AtomicInteger();
    CountDownLatch entered = new CountDownLatch(1);
    Lazy<Object> lazy =
        Lazy.of(
            () -> {
              built.incrementAndGet();
              entered.countDown();
              sleep(50); // the other threads arrive while it builds
              return new Object();
            });
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Object>> got = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        got.add(threads.submit(lazy::get));
      }
      Object value = got.get(0).get(10, TimeUnit.SECONDS);
      for (Future<Object> each : got) {
        assertSame(value, each.get(10, TimeUnit.SECONDS));
      }
    } finally {
      threads.shutdownNow();
    }
    assertEquals(1, built.get());
  }

  @Test
  void aFailedBuildKeepsNothingAndIsTriedAgain() {
    AtomicInteger calls = new AtomicInteger();
    Lazy<String> lazy =
        Lazy.of(
            () -> {
              if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("no region");
              }
              return "client";
            });

    assertEquals("no region", assertThrows(IllegalStateException.class, lazy::get).getMessage());
    assertFalse(lazy.isBuilt());
    assertEquals("client", lazy.get());
    assertEquals(2, calls.get());
  }

  @Test
  void aFactoryReturningNullIsRefused() {
    Lazy<String> lazy = Lazy.of(() -> null);

    var e = assertThrows(IllegalStateException.class, lazy::get);
    assertTrue(e.getMessage().contains("returned null"), e.getMessage());
    assertFalse(lazy.isBuilt());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
