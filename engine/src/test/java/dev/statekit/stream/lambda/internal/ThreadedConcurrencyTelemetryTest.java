package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.statekit.telemetry.Metric;
import dev.statekit.telemetry.Metrics;
import dev.statekit.telemetry.MetricsReport;
import dev.statekit.telemetry.Telemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A batch's parallel calls (its writes to the store, which meter DynamoDB capacity) record into the
 * invocation's metrics and log with its fields, whichever pool thread runs them.
 */
class ThreadedConcurrencyTelemetryTest {
  @Test
  void callsOnPoolThreadsRecordIntoTheInvocationAndLogWithItsFields() throws Exception {
    ThreadedConcurrency concurrency = new ThreadedConcurrency(4);
    Map<Integer, String> requestIds = new ConcurrentHashMap<>();
    CountDownLatch together = new CountDownLatch(4);
    AtomicReference<MetricsReport> published = new AtomicReference<>();
    AtomicReference<String> after = new AtomicReference<>();
    try (Telemetry.Scope scope = Telemetry.invocation("req-9", null, published::set);
        Telemetry.Restore pipeline = Telemetry.with(Telemetry.PIPELINE, "fraud-check")) {
      List<Runnable> calls = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        int call = i;
        calls.add(
            () -> {
              // All four at once, so three run on pool threads.
              together.countDown();
              try {
                together.await(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              requestIds.put(call, String.valueOf(Telemetry.fields().get(Telemetry.REQUEST_ID)));
              Metrics.add(Metric.WRITE_CAPACITY, 1);
            });
      }
      concurrency.runAll(calls);
      // A second run on threads the first started is carried too.
      after.set("unset");
      concurrency.runAll(
          List.of(() -> {}, () -> after.set(Telemetry.fields().get(Telemetry.REQUEST_ID))));
    }
    assertEquals(Map.of(0, "req-9", 1, "req-9", 2, "req-9", 3, "req-9"), requestIds);
    assertEquals(4.0, published.get().sum(Metric.WRITE_CAPACITY));
    assertEquals("req-9", after.get(), "the second run is carried too");
    // Outside any invocation, a pool thread sees none.
    AtomicReference<String> outside = new AtomicReference<>("unset");
    concurrency.runAll(
        List.of(() -> {}, () -> outside.set(Telemetry.fields().get(Telemetry.REQUEST_ID))));
    assertNull(outside.get());
  }
}
