package dev.statekit.function;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Builds a record for a StateFun Kafka egress: {@code KafkaEgressMessage.forEgress(ORDERS)
 * .withTopic("orders").withUtf8Key(id).withUtf8Value(json).build()}. The record travels as a {@code
 * io.statefun.sdk.egress.KafkaProducerRecord}, the format StateFun's Kafka egress reads.
 */
public final class KafkaEgressMessage {
  static final TypeName RECORD_TYPE =
      TypeName.of("type.googleapis.com", "io.statefun.sdk.egress.KafkaProducerRecord");

  private final TypeName egress;
  private String topic;
  private String key = "";
  private ByteString value;

  private KafkaEgressMessage(TypeName egress) {
    this.egress = egress;
  }

  /** A record for the Kafka egress {@code egress}. */
  public static KafkaEgressMessage forEgress(TypeName egress) {
    return new KafkaEgressMessage(Objects.requireNonNull(egress, "egress"));
  }

  /** The Kafka topic (required). */
  public KafkaEgressMessage withTopic(String topic) {
    this.topic = Objects.requireNonNull(topic, "topic");
    return this;
  }

  /** The record key, as UTF-8 (optional). */
  public KafkaEgressMessage withUtf8Key(String key) {
    this.key = Objects.requireNonNull(key, "key");
    return this;
  }

  /** The record value: these bytes (copied). */
  public KafkaEgressMessage withValue(byte[] value) {
    this.value = ByteString.copyFrom(Objects.requireNonNull(value, "value"));
    return this;
  }

  /** The record value: the UTF-8 bytes of this string. */
  public KafkaEgressMessage withUtf8Value(String value) {
    return withValue(Objects.requireNonNull(value, "value").getBytes(StandardCharsets.UTF_8));
  }

  /** The record value: {@code value} serialized by {@code type}. */
  public <T> KafkaEgressMessage withValue(Type<T> type, T value) {
    this.value = UnsafeByteOperations.unsafeWrap(type.serialize(Objects.requireNonNull(value)));
    return this;
  }

  /**
   * The egress message.
   *
   * @throws IllegalStateException if the topic is missing or empty, or no value was given
   */
  public EgressMessage build() {
    if (topic == null || topic.isEmpty()) {
      throw new IllegalStateException(
          "The Kafka record for " + egress + " has no topic: call withTopic(...) before build()");
    }
    if (value == null) {
      throw new IllegalStateException(
          "The Kafka record for " + egress + " has no value: call withValue(...) before build()");
    }
    byte[] record = EgressRecordBytes.kafka(key, value, topic);
    return new EgressMessage(egress, RECORD_TYPE.asString(), record);
  }
}
