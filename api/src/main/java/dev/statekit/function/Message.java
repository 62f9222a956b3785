package dev.statekit.function;

/**
 * A message to a function: its target address and a typed value. A function receives one (its
 * target is then the function's own address) and sends others, built with {@link MessageBuilder}.
 */
public final class Message extends TypedPayload {
  private final Address target;

  Message(Address target, String typeName, byte[] value) {
    super(typeName, value);
    this.target = target;
  }

  /** The address the message goes to. */
  public Address targetAddress() {
    return target;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Message
        && target.equals(((Message) other).target)
        && samePayload((Message) other);
  }

  @Override
  public int hashCode() {
    return 31 * target.hashCode() + payloadHash();
  }

  @Override
  public String toString() {
    return "Message to " + target + ": " + describeValue();
  }
}
