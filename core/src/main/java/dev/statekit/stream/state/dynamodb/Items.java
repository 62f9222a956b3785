package dev.statekit.stream.state.dynamodb;

import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Attribute values to and from Java values. */
final class Items {
  private Items() {}

  static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  static long number(AttributeValue value) {
    return value == null ? 0 : Long.parseLong(value.n());
  }

  static long number(AttributeValue value, long absent) {
    return value == null ? absent : Long.parseLong(value.n());
  }

  static byte[] bytes(AttributeValue value) {
    return value == null ? null : value.b().asByteArrayUnsafe();
  }

  /** Puts {@code bytes} under {@code name} unless null (DynamoDB keeps no null binary). */
  static void putBytes(Map<String, AttributeValue> item, String name, byte[] bytes) {
    if (bytes != null) {
      item.put(name, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(bytes)));
    }
  }

  static String string(AttributeValue value) {
    return value == null ? null : value.s();
  }
}
