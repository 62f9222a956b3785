package dev.statekit.function;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes StateFun's egress record messages ({@code io.statefun.sdk.egress}'s {@code
 * KafkaProducerRecord} and {@code KinesisEgressRecord}) with protobuf-java's coded stream, so the
 * function API needs no generated classes. The bytes are what the generated classes write: fields
 * in number order, proto3 defaults (empty strings and bytes) left out. The engine's tests hold the
 * two to the same bytes.
 */
final class EgressRecordBytes {
  private EgressRecordBytes() {}

  /** {@code KafkaProducerRecord}: key = 1, value_bytes = 2, topic = 3. */
  static byte[] kafka(String key, ByteString value, String topic) {
    return write(new Object[] {key, value, topic});
  }

  /**
   * {@code KinesisEgressRecord}: partition_key = 1, value_bytes = 2, stream = 3, explicit_hash_key
   * = 4.
   */
  static byte[] kinesis(String partitionKey, ByteString value, String stream, String hashKey) {
    return write(new Object[] {partitionKey, value, stream, hashKey});
  }

  /** Field {@code i + 1} is {@code fields[i]}, a string or bytes. */
  private static byte[] write(Object[] fields) {
    int size = 0;
    for (int i = 0; i < fields.length; i++) {
      size += sizeOf(i + 1, fields[i]);
    }
    byte[] out = new byte[size];
    CodedOutputStream stream = CodedOutputStream.newInstance(out);
    try {
      for (int i = 0; i < fields.length; i++) {
        Object field = fields[i];
        if (field instanceof String s && !s.isEmpty()) {
          stream.writeString(i + 1, s);
        } else if (field instanceof ByteString b && !b.isEmpty()) {
          stream.writeBytes(i + 1, b);
        }
      }
      stream.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static int sizeOf(int number, Object field) {
    if (field instanceof String s) {
      return s.isEmpty() ? 0 : CodedOutputStream.computeStringSize(number, s);
    }
    ByteString b = (ByteString) field;
    return b.isEmpty() ? 0 : CodedOutputStream.computeBytesSize(number, b);
  }
}
