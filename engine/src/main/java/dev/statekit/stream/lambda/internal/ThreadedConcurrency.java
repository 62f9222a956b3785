package dev.statekit.stream.lambda.internal;

import dev.statekit.concurrent.ParallelCalls;
import dev.statekit.stream.lambda.BatchConcurrency;
import java.util.List;
import java.util.concurrent.Callable;

/** A batch's independent calls on threads, all at once: one round trip per step. */
public final class ThreadedConcurrency implements BatchConcurrency {
  private final ParallelCalls parallel;

  /** Up to {@code parallelism} calls at once beside the caller's. */
  public ThreadedConcurrency(int parallelism) {
    this.parallel = new ParallelCalls(parallelism);
  }

  @Override
  public void runAll(List<Runnable> calls) {
    parallel.all(
        calls.stream()
            .<Callable<Void>>map(
                call ->
                    () -> {
                      call.run();
                      return null;
                    })
            .toList());
  }
}
