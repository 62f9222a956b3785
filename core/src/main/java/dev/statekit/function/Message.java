package dev.statekit.function;

import java.util.Objects;

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

  /**
   * A message for {@code target} from bytes already serialized; the array is copied. Functions
   * build messages with {@link MessageBuilder}; this is for runtimes that carry raw values.
   */
  public static Message ofRaw(Address target, TypeName valueTypeName, byte[] value) {
    Objects.requireNonNull(target, "target");
    return new Message(target, valueTypeName.asString(), value.clone());
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
