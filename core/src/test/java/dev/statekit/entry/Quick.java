package dev.statekit.entry;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

/** What the fuzz targets ask of every input's cost: answered or refused within a bound. */
final class Quick {
  /** Longer than any input of a fuzz run should take, even on a busy CI machine. */
  static final Duration BOUND = Duration.ofSeconds(2);

  private Quick() {}

  interface Work {
    void run();
  }

  /** Runs {@code work}, which may throw one of {@code refusals}; fails if it took too long. */
  @SafeVarargs
  static void within(Work work, Class<? extends RuntimeException>... refusals) {
    long started = System.nanoTime();
    try {
      work.run();
    } catch (RuntimeException e) {
      boolean documented = false;
      for (Class<? extends RuntimeException> refusal : refusals) {
        documented |= refusal.isInstance(e);
      }
      if (!documented) {
        throw e;
      }
    }
    long took = System.nanoTime() - started;
    assertTrue(took < BOUND.toNanos(), "took " + took / 1_000_000 + " ms");
  }
}
