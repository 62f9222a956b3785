package dev.statekit.protocol;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.statekit.protocol.internal.wire.KafkaProducerRecord;
import dev.statekit.protocol.internal.wire.KinesisEgressRecord;

/**
 * Reads StateFun's egress record messages ({@code io.statefun.sdk.egress}), which {@code
 * KafkaEgressMessage} and {@code KinesisEgressMessage} write, so the egress routes need no
 * generated class. Empty strings are proto3's "not set" and read as {@code null}.
 */
public final class EgressRecords {
  private EgressRecords() {}

  /** A Kafka producer record. */
  public record Kafka(String topic, String key, byte[] value) {}

  /** A Kinesis record. */
  public record Kinesis(String stream, String partitionKey, String explicitHashKey, byte[] value) {}

  /**
   * The Kafka record in {@code bytes}.
   *
   * @throws IllegalArgumentException if they are no {@code KafkaProducerRecord}
   */
  public static Kafka kafka(byte[] bytes) {
    try {
      KafkaProducerRecord r = KafkaProducerRecord.parseFrom(bytes);
      return new Kafka(unset(r.getTopic()), unset(r.getKey()), r.getValueBytes().toByteArray());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The Kinesis record in {@code bytes}.
   *
   * @throws IllegalArgumentException if they are no {@code KinesisEgressRecord}
   */
  public static Kinesis kinesis(byte[] bytes) {
    try {
      KinesisEgressRecord r = KinesisEgressRecord.parseFrom(bytes);
      return new Kinesis(
          unset(r.getStream()),
          r.getPartitionKey(),
          unset(r.getExplicitHashKey()),
          r.getValueBytes().toByteArray());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static String unset(String text) {
    return text.isEmpty() ? null : text;
  }
}
