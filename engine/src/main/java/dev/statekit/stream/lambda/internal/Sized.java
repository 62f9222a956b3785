package dev.statekit.stream.lambda.internal;

/**
 * Initial capacities for the hash maps and sets a batch fills with a known number of entries (its
 * records, its keys): grown from the default, they rehash several times per batch.
 */
final class Sized {
  private Sized() {}

  /** A capacity that holds {@code entries} without a rehash at the default load factor. */
  static int capacity(int entries) {
    return (int) Math.min(1L << 30, (entries * 4L + 2) / 3);
  }
}
