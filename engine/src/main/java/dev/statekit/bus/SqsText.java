package dev.statekit.bus;

/**
 * The characters SQS takes in a message body and a string attribute, as its SendMessage documents
 * them: {@code #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF}. A message holding
 * any other (a control character, U+FFFE, U+FFFF, half of a surrogate pair) is refused with
 * InvalidMessageContents, however often it is sent. User data (a string value, an address id, a
 * token, an exception's message) may hold any of them, so every body and attribute StateKit writes
 * goes through {@link #escape}, and the in-memory queues refuse what SQS refuses ({@link #refusal},
 * {@link QueueLimits}).
 */
public final class SqsText {
  private SqsText() {}

  /** Whether SQS takes the code point {@code c} in a body or string attribute. */
  public static boolean allowed(int c) {
    return c == 0x9
        || c == 0xA
        || c == 0xD
        || (c >= 0x20 && c <= 0xD7FF)
        || (c >= 0xE000 && c <= 0xFFFD)
        || (c >= 0x10000 && c <= 0x10FFFF);
  }

  /** The index of the first character SQS refuses in {@code text}, or -1 if it takes them all. */
  public static int firstRefused(String text) {
    for (int i = 0; i < text.length(); ) {
      // An unpaired surrogate comes out of codePointAt as itself, which allowed() refuses.
      int c = text.codePointAt(i);
      if (!allowed(c)) {
        return i;
      }
      i += Character.charCount(c);
    }
    return -1;
  }

  /** The index of the first unpaired surrogate in {@code text}, or -1 if it has none. */
  static int firstUnpairedSurrogate(String text) {
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
        return i;
      }
      i += Character.charCount(c);
    }
    return -1;
  }

  /**
   * {@code text} with every character SQS refuses written as a JSON escape {@code \}{@code uXXXX}
   * (an unpaired surrogate too); {@code text} itself when it has none. In JSON text such characters
   * can only stand inside strings, so JSON stays the same JSON value: a reader gets every character
   * back exactly. In plain text (an attribute) the escape is a readable stand-in.
   */
  public static String escape(String text) {
    int first = firstRefused(text);
    if (first < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); ) {
      int c = text.codePointAt(i);
      int length = Character.charCount(c);
      if (allowed(c)) {
        out.append(text, i, i + length);
      } else {
        appendEscape(out, c);
      }
      i += length;
    }
    return out.toString();
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** {@code \}{@code uXXXX} for {@code c}, a BMP code point (every one SQS refuses is). */
  private static void appendEscape(StringBuilder out, int c) {
    out.append('\\')
        .append('u')
        .append(HEX[(c >> 12) & 0xF])
        .append(HEX[(c >> 8) & 0xF])
        .append(HEX[(c >> 4) & 0xF])
        .append(HEX[c & 0xF]);
  }

  /**
   * Why SQS would refuse {@code message} (a character outside its set in the body or a string
   * attribute), or {@code null} if it takes it.
   */
  public static String refusal(BusMessage message) {
    String where = refusedIn("body", message.body());
    if (where != null) {
      return where;
    }
    for (var attribute : message.attributes().entrySet()) {
      where = refusedIn("attribute " + attribute.getKey(), attribute.getValue());
      if (where != null) {
        return where;
      }
    }
    return null;
  }

  private static String refusedIn(String part, String text) {
    int at = firstRefused(text);
    if (at < 0) {
      return null;
    }
    return String.format(
        "its %s holds U+%04X at index %d, a character SQS refuses (InvalidMessageContents):"
            + " write it as a JSON escape (SqsText.escape)",
        part, text.codePointAt(at), at);
  }
}
