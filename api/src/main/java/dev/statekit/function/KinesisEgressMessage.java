package dev.statekit.function;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Builds a record for a StateFun Kinesis egress: {@code KinesisEgressMessage.forEgress(EVENTS)
 * .withStream("events").withUtf8PartitionKey(id).withUtf8Value(json).build()}. The record travels
 * as a {@code io.statefun.sdk.egress.KinesisEgressRecord}, the format StateFun's Kinesis egress
 * reads.
 */
public final class KinesisEgressMessage {
  static final TypeName RECORD_TYPE =
      TypeName.of("type.googleapis.com", "io.statefun.sdk.egress.KinesisEgressRecord");

  private final TypeName egress;
  private String stream;
  private String partitionKey;
  private String explicitHashKey = "";
  private ByteString value;

  private KinesisEgressMessage(TypeName egress) {
    this.egress = egress;
  }

  /** A record for the Kinesis egress {@code egress}. */
  public static KinesisEgressMessage forEgress(TypeName egress) {
    return new KinesisEgressMessage(Objects.requireNonNull(egress, "egress"));
  }

  /** The Kinesis stream (required). */
  public KinesisEgressMessage withStream(String stream) {
    this.stream = Objects.requireNonNull(stream, "stream");
    return this;
  }

  /** The partition key (required). */
  public KinesisEgressMessage withUtf8PartitionKey(String partitionKey) {
    this.partitionKey = Objects.requireNonNull(partitionKey, "partitionKey");
    return this;
  }

  /** The explicit hash key that overrides the partition key's hash (optional). */
  public KinesisEgressMessage withUtf8ExplicitHashKey(String explicitHashKey) {
    this.explicitHashKey = Objects.requireNonNull(explicitHashKey, "explicitHashKey");
    return this;
  }

  /** The record value: these bytes (copied). */
  public KinesisEgressMessage withValue(byte[] value) {
    this.value = ByteString.copyFrom(Objects.requireNonNull(value, "value"));
    return this;
  }

  /** The record value: the UTF-8 bytes of this string. */
  public KinesisEgressMessage withUtf8Value(String value) {
    return withValue(Objects.requireNonNull(value, "value").getBytes(StandardCharsets.UTF_8));
  }

  /** The record value: {@code value} serialized by {@code type}. */
  public <T> KinesisEgressMessage withValue(Type<T> type, T value) {
    this.value = UnsafeByteOperations.unsafeWrap(type.serialize(Objects.requireNonNull(value)));
    return this;
  }

  /**
   * The egress message.
   *
   * @throws IllegalStateException if the stream, the partition key or the value is missing
   */
  public EgressMessage build() {
    if (stream == null || stream.isEmpty()) {
      throw new IllegalStateException(
          "The Kinesis record for " + egress + " has no stream: call withStream(...)");
    }
    if (partitionKey == null || partitionKey.isEmpty()) {
      throw new IllegalStateException(
          "The Kinesis record for "
              + egress
              + " has no partition key: call withUtf8PartitionKey(...)");
    }
    if (value == null) {
      throw new IllegalStateException(
          "The Kinesis record for " + egress + " has no value: call withValue(...)");
    }
    byte[] record = EgressRecordBytes.kinesis(partitionKey, value, stream, explicitHashKey);
    return new EgressMessage(egress, RECORD_TYPE.asString(), record);
  }
}
