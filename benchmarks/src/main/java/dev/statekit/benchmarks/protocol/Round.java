package dev.statekit.benchmarks.protocol;

/**
 * One timed round of one side: invocations per second, and the CPU time its JVM spent per
 * invocation ({@code NaN} where the side shares its JVM and the figure cannot be told apart).
 */
record Round(double rate, double cpuNanos) {
  /** A way to time one round of about {@code nanos}. */
  interface Timer {
    Round round(long nanos);
  }
}
