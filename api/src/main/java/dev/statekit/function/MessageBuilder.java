package dev.statekit.function;

import dev.statekit.types.TypeName;
import java.util.Objects;

/**
 * Builds a {@link Message}: {@code MessageBuilder.forAddress(AUDIT,
 * "all").withValue("hi").build()}.
 */
public final class MessageBuilder extends TypedValueBuilder<MessageBuilder> {
  private final Address target;

  private MessageBuilder(Address target) {
    this.target = target;
  }

  /** A message for the instance {@code id} of function type {@code type}. */
  public static MessageBuilder forAddress(TypeName type, String id) {
    return new MessageBuilder(Address.of(type, id));
  }

  /** A message for {@code target}. */
  public static MessageBuilder forAddress(Address target) {
    return new MessageBuilder(Objects.requireNonNull(target, "target"));
  }

  @Override
  MessageBuilder self() {
    return this;
  }

  /**
   * The message.
   *
   * @throws IllegalStateException if no value was given
   */
  public Message build() {
    requireValue("The message to ", target);
    return new Message(target, typeName, value);
  }
}
