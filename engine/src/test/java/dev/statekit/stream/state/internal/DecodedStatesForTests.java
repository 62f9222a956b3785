package dev.statekit.stream.state.internal;

/** Decoded states for tests outside this package. */
public final class DecodedStatesForTests {
  private DecodedStatesForTests() {}

  /** A key's state with one value. */
  public static DecodedState some() {
    KeyEntry entry = new KeyEntry("a", 1);
    entry.slots[0] = 1L;
    return new DecodedState("p#op", entry);
  }
}
