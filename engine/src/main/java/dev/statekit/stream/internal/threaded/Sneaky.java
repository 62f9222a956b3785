package dev.statekit.stream.internal.threaded;

/** Carries a checked exception through a functional interface without wrapping it. */
final class Sneaky {
  private Sneaky() {}

  static RuntimeException propagate(Throwable t) {
    Sneaky.<RuntimeException>raise(t);
    return new IllegalStateException("unreachable");
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void raise(Throwable t) throws E {
    throw (E) t;
  }
}
