package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InOrderConcurrencyTest {
  private final InOrderConcurrency concurrency = new InOrderConcurrency();

  @Test
  void everyCallRunsOnTheCallerInOrder() {
    List<String> ran = new ArrayList<>();
    Thread caller = Thread.currentThread();
    concurrency.runAll(
        List.of(
            () -> ran.add("a" + (Thread.currentThread() == caller)),
            () -> ran.add("b" + (Thread.currentThread() == caller)),
            () -> ran.add("c" + (Thread.currentThread() == caller))));
    assertEquals(List.of("atrue", "btrue", "ctrue"), ran);
    concurrency.runAll(List.of());
  }

  @Test
  void theCallsAfterAFailureStillRunAndTheFirstFailureIsThrown() {
    List<String> ran = new ArrayList<>();
    RuntimeException boom = new IllegalStateException("the first call failed");
    RuntimeException thrown =
        assertThrows(
            RuntimeException.class,
            () ->
                concurrency.runAll(
                    List.of(
                        () -> {
                          throw boom;
                        },
                        () -> ran.add("second"),
                        () -> {
                          throw new IllegalArgumentException("a later call failed");
                        },
                        () -> ran.add("fourth"))));
    assertSame(boom, thrown);
    assertEquals(List.of("second", "fourth"), ran, "a failure stopped the step's other calls");
  }

  @Test
  void anErrorComesBeforeAnException() {
    AssertionError error = new AssertionError("an error in the second call");
    AssertionError thrown =
        assertThrows(
            AssertionError.class,
            () ->
                concurrency.runAll(
                    List.of(
                        () -> {
                          throw new IllegalStateException("an exception in the first");
                        },
                        () -> {
                          throw error;
                        })));
    assertSame(error, thrown);
  }
}
