package dev.statekit.stream;

/**
 * A key class equal by value whose instances Jackson cannot construct (no default constructor):
 * {@code Serdes.auto()} writes it but cannot read it back.
 */
public final class UnreadableKey {
  private final String name;

  /** A key named {@code name}. */
  public UnreadableKey(String name) {
    this.name = name;
  }

  /** Its name, which Jackson writes. */
  public String getName() {
    return name;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UnreadableKey k && k.name.equals(name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }
}
