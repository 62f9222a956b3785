package dev.statekit.stream.lambda;

import dev.statekit.stream.lambda.internal.ThreadedConcurrency;
import java.util.List;

/**
 * How a {@link BatchPipeline} runs the independent calls of one step of a batch (the key reads
 * beside the split read, the key writes beside the timer writes, the deliveries to each sink): by
 * default all at once on threads, so that each step costs one round trip, if the store's calls wait
 * on I/O ({@link BatchStore#callsWait()}), else one after another on the invoking thread. A
 * deterministic simulation gives its own, which runs them one after another in an order its seed
 * chooses, and may stop part way as a crash would.
 */
@FunctionalInterface
public interface BatchConcurrency {
  /**
   * Runs every call and returns once all have ended; then throws the first failure, as it was
   * thrown.
   */
  void runAll(List<Runnable> calls);

  /** Up to {@code parallelism} calls at once beside the caller's own thread. */
  static BatchConcurrency threads(int parallelism) {
    return new ThreadedConcurrency(parallelism);
  }
}
