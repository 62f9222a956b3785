package dev.statekit.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import dev.statekit.Deadline;
import java.time.Duration;

/** The invocation's deadline as core takes it: a plain value, no Lambda type. */
final class Deadlines {
  private Deadlines() {}

  /** The time {@code context} says remains; none without a context (a test, a local call). */
  static Deadline of(Context context) {
    return context == null
        ? Deadline.none()
        : Deadline.after(Duration.ofMillis(Math.max(0, context.getRemainingTimeInMillis())));
  }
}
