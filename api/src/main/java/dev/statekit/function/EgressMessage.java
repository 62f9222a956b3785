package dev.statekit.function;

import dev.statekit.types.TypeName;

/**
 * A record for an egress: the egress's type name and a typed value. Build one with {@link
 * EgressMessageBuilder}, or a Kafka or Kinesis record with {@link KafkaEgressMessage} or {@link
 * KinesisEgressMessage}.
 */
public final class EgressMessage extends TypedPayload {
  private final TypeName egress;

  EgressMessage(TypeName egress, String typeName, byte[] value) {
    super(typeName, value);
    this.egress = egress;
  }

  /** The egress this record goes to. */
  public TypeName targetEgress() {
    return egress;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EgressMessage
        && egress.equals(((EgressMessage) other).egress)
        && samePayload((EgressMessage) other);
  }

  @Override
  public int hashCode() {
    return 31 * egress.hashCode() + payloadHash();
  }

  @Override
  public String toString() {
    return "Egress to " + egress + ": " + describeValue();
  }
}
