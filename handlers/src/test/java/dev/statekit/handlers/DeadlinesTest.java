package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.Context;
import java.lang.reflect.Proxy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeadlinesTest {
  /** A context that only knows the time remaining, as the handlers use nothing else. */
  private static Context remaining(int millis) {
    return (Context)
        Proxy.newProxyInstance(
            Context.class.getClassLoader(),
            new Class<?>[] {Context.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getRemainingTimeInMillis")) {
                return millis;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  @Test
  void theContextsRemainingTimeIsTheDeadline() {
    var deadline = Deadlines.of(remaining(30_000));

    assertFalse(deadline.isUnlimited());
    assertTrue(deadline.hasMoreThan(Duration.ofSeconds(20)), deadline.toString());
    assertFalse(deadline.hasMoreThan(Duration.ofSeconds(31)), deadline.toString());
  }

  @Test
  void aContextPastItsTimeGivesAPassedDeadline() {
    assertEquals(Duration.ZERO, Deadlines.of(remaining(-5)).remaining());
  }

  @Test
  void noContextMeansNoDeadline() {
    assertTrue(Deadlines.of(null).isUnlimited());
  }
}
