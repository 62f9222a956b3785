package dev.statekit.stream.lambda.simulation;

import java.nio.charset.StandardCharsets;

/**
 * Item sizes as DynamoDB computes them against its 400 KB limit: each attribute's name in UTF-8
 * plus its value (a string's UTF-8 bytes, a binary's bytes, a number's significant digits at one
 * byte per two plus one, a NULL or boolean one byte, a list or map three bytes plus one per element
 * and its elements).
 */
final class ItemSize {
  static final int LIMIT = 400 * 1024;

  private int bytes;

  ItemSize string(String name, String value) {
    bytes += name(name) + (value == null ? 1 : value.getBytes(StandardCharsets.UTF_8).length);
    return this;
  }

  ItemSize binary(String name, byte[] value) {
    bytes += name(name) + (value == null ? 1 : value.length);
    return this;
  }

  ItemSize number(String name, long value) {
    String digits = Long.toString(Math.abs(value)).replaceAll("^0+|0+$", "");
    bytes += name(name) + (digits.length() + 1) / 2 + 1;
    return this;
  }

  /** A list or map attribute of {@code elements} elements holding {@code content} bytes. */
  ItemSize collection(String name, int elements, int content) {
    bytes += name(name) + 3 + elements + content;
    return this;
  }

  int bytes() {
    return bytes;
  }

  private static int name(String name) {
    return name.getBytes(StandardCharsets.UTF_8).length;
  }
}
