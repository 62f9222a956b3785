package dev.statekit.runtime.store;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The size of a DynamoDB item by DynamoDB's published rules: names and strings in UTF-8 bytes,
 * binary as is, numbers one byte per two significant digits plus one, lists and maps three bytes
 * plus one per element, booleans and nulls one byte.
 */
public final class DynamoDbItemSize {
  /** DynamoDB's item limit, 400 KB, names included. */
  public static final long DYNAMODB_ITEM_LIMIT = 400 * 1024;

  private DynamoDbItemSize() {}

  public static long of(Map<String, AttributeValue> item) {
    long size = 0;
    for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
      size += utf8Length(attribute.getKey()) + of(attribute.getValue());
    }
    return size;
  }

  private static long of(AttributeValue value) {
    switch (value.type()) {
      case S:
        return utf8Length(value.s());
      case N:
        return number(value.n());
      case B:
        return value.b().asByteArrayUnsafe().length;
      case BOOL:
      case NUL:
        return 1;
      case M:
        return 3 + value.m().size() + of(value.m());
      case L:
        long list = 3 + value.l().size();
        for (AttributeValue element : value.l()) {
          list += of(element);
        }
        return list;
      case SS:
        return value.ss().stream().mapToLong(DynamoDbItemSize::utf8Length).sum();
      case NS:
        return value.ns().stream().mapToLong(DynamoDbItemSize::number).sum();
      case BS:
        return value.bs().stream().mapToLong(b -> b.asByteArrayUnsafe().length).sum();
      default:
        throw new IllegalArgumentException("Unknown attribute type " + value.type());
    }
  }

  private static long number(String number) {
    int digits = 0;
    String trimmed = number.replaceFirst("^[-+]?0*", "").replaceFirst("[eE].*$", "");
    for (int i = 0; i < trimmed.length(); i++) {
      digits += Character.isDigit(trimmed.charAt(i)) ? 1 : 0;
    }
    return (digits + 1) / 2 + 1;
  }

  static long utf8Length(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
