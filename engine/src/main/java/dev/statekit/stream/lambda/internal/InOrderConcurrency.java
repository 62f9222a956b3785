package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.BatchConcurrency;
import java.util.List;

/**
 * A batch's independent calls one after another on the invoking thread, for a store whose calls
 * return at once (in memory): on threads they would only add hand-offs. Every call runs, whatever
 * an earlier one threw; then the first failure is thrown, errors before exceptions, as {@link
 * ThreadedConcurrency} does, so that a step ends the same way whichever runs it.
 */
public final class InOrderConcurrency implements BatchConcurrency {
  @Override
  public void runAll(List<Runnable> calls) {
    Throwable[] failures = new Throwable[calls.size()];
    for (int i = 0; i < calls.size(); i++) {
      try {
        calls.get(i).run();
      } catch (RuntimeException | Error e) {
        failures[i] = e;
      }
    }
    ThreadedConcurrency.rethrowFirst(failures);
  }
}
