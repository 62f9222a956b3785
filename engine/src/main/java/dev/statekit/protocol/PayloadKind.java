package dev.statekit.protocol;

/**
 * What a payload handed to a Lambda entry point is, told from its first bytes without parsing it:
 * the raw bytes of a StateFun {@code ToFunction}, or a JSON document (an HTTP event, a queue or
 * stream batch, ...).
 */
public enum PayloadKind {
  /** A serialized {@code ToFunction}: it starts with {@code A2 06}, the tag of field 100. */
  TO_FUNCTION,
  /** JSON: the first byte that is not white space (after an optional UTF-8 BOM) is '{' or '['. */
  JSON,
  /** Neither, or empty. */
  UNKNOWN;

  /** Tells the kind of {@code payload} from its first bytes. */
  public static PayloadKind of(byte[] payload) {
    if (payload.length >= 2 && payload[0] == (byte) 0xA2 && payload[1] == 0x06) {
      return TO_FUNCTION;
    }
    int i = 0;
    if (payload.length >= 3
        && payload[0] == (byte) 0xEF
        && payload[1] == (byte) 0xBB
        && payload[2] == (byte) 0xBF) {
      i = 3;
    }
    while (i < payload.length && isJsonWhitespace(payload[i])) {
      i++;
    }
    if (i < payload.length && (payload[i] == '{' || payload[i] == '[')) {
      return JSON;
    }
    return UNKNOWN;
  }

  private static boolean isJsonWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }
}
