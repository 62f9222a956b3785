package dev.statekit.benchmarks.operators;

/**
 * The generated input both engines read: record {@code i} has key {@code "k" + (i % 10000)}, value
 * 1 and event time {@code i} ms. Keys are made once, so neither engine pays for string building per
 * record.
 */
final class Input {
  static final int KEYS = 10_000;
  static final String[] KEY = new String[KEYS];

  static {
    for (int i = 0; i < KEYS; i++) {
      KEY[i] = "k" + i;
    }
  }

  private Input() {}

  static String key(long i) {
    return KEY[(int) (i % KEYS)];
  }

  /** A StateKit record value. */
  record KeyedCount(String key, long count) {}
}
