package dev.statekit.stream.state.dynamodb;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Attribute values to and from Java values. */
public final class Items {
  private Items() {}

  public static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  public static long number(AttributeValue value) {
    return value == null ? 0 : Long.parseLong(value.n());
  }

  public static long number(AttributeValue value, long absent) {
    return value == null ? absent : Long.parseLong(value.n());
  }

  /** The bytes of a binary attribute; null if absent or written as NULL. */
  public static byte[] bytes(AttributeValue value) {
    return value == null || value.b() == null ? null : value.b().asByteArrayUnsafe();
  }

  public static AttributeValue bytes(byte[] bytes) {
    return AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(bytes));
  }

  public static String string(AttributeValue value) {
    return value == null ? null : value.s();
  }
}
