package dev.statekit.stream.lambda;

import dev.statekit.stream.AggregateFunction;

/** Counts; slowly (400 ms) for one value, after which a keyed pass has reached its deadline. */
final class SlowCountAt implements AggregateFunction<String, Long, Long> {
  private final String slow;

  SlowCountAt(String slow) {
    this.slow = slow;
  }

  @Override
  public Long createAccumulator() {
    return 0L;
  }

  @Override
  public Long add(String value, Long accumulator) {
    if (value.equals(slow)) {
      try {
        Thread.sleep(400);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return accumulator + 1;
  }

  @Override
  public Long result(Long accumulator) {
    return accumulator;
  }
}
