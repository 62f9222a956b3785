package dev.statekit.function;

import dev.statekit.types.TypeName;
import java.util.Objects;

/**
 * Builds an {@link EgressMessage} with a typed value: {@code
 * EgressMessageBuilder.forEgress(GREETS).withValue("Hello").build()}.
 */
public final class EgressMessageBuilder extends TypedValueBuilder<EgressMessageBuilder> {
  private final TypeName egress;

  private EgressMessageBuilder(TypeName egress) {
    this.egress = egress;
  }

  /** A record for the egress {@code egress}. */
  public static EgressMessageBuilder forEgress(TypeName egress) {
    return new EgressMessageBuilder(Objects.requireNonNull(egress, "egress"));
  }

  @Override
  EgressMessageBuilder self() {
    return this;
  }

  /**
   * The record.
   *
   * @throws IllegalStateException if no value was given
   */
  public EgressMessage build() {
    requireValue("The egress record for ", egress);
    return new EgressMessage(egress, typeName, value);
  }
}
