package dev.statekit.bus;

import dev.statekit.function.Address;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * How StateKit names SQS message groups and deduplication ids, which SQS limits to 128 characters
 * of ASCII letters, digits and punctuation: a text that fits is used as it is, any other is
 * replaced by {@code h-} and its SHA-256 in base64url. Producers that send to the ingress queue use
 * {@link #groupId(Address)} so each address's messages stay in order.
 */
public final class QueueIds {
  private static final int MAX_LENGTH = 128;

  /** The largest message body SQS takes, 256 KiB; the in-memory bus holds messages to it too. */
  public static final int MAX_MESSAGE_BYTES = 256 * 1024;

  private QueueIds() {}

  /** The message group of messages to {@code target}: its address, {@code namespace/type/id}. */
  public static String groupId(Address target) {
    return fit(target.toString());
  }

  /** {@code text} if SQS takes it as a group or deduplication id, otherwise its hash. */
  public static String fit(String text) {
    if (text.length() <= MAX_LENGTH
        && !text.isEmpty()
        && text.chars().allMatch(QueueIds::allowed)) {
      return text;
    }
    return "h-" + sha256(text);
  }

  /** The SHA-256 of the text's UTF-8 bytes in unpadded base64url (43 characters). */
  public static String sha256(String text) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(digest(text));
  }

  /** The first 8 bytes of the SHA-256 of the text's UTF-8 bytes, as a long. */
  public static long fingerprint(String text) {
    byte[] digest = digest(text);
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (digest[i] & 0xFF);
    }
    return value;
  }

  private static byte[] digest(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes(text));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JDK has SHA-256", e);
    }
  }

  /**
   * The text's UTF-8 bytes; an unpaired surrogate, which UTF-8 has no bytes for (Java writes '?'),
   * as the three bytes its code unit would take (WTF-8), which no valid UTF-8 holds. Two texts that
   * differ only in an unpaired surrogate are two addresses (bodies carry them exactly), so they
   * must not have one hash: one dedup id would drop the second's message as a repeat.
   */
  private static byte[] bytes(String text) {
    if (SqsText.firstUnpairedSurrogate(text) < 0) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(text.length() * 3);
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      int length = Character.charCount(c);
      if (Character.isSurrogate((char) c) && length == 1) {
        out.write(0xE0 | (c >> 12));
        out.write(0x80 | ((c >> 6) & 0x3F));
        out.write(0x80 | (c & 0x3F));
      } else {
        out.writeBytes(text.substring(i, i + length).getBytes(StandardCharsets.UTF_8));
      }
      i += length;
    }
    return out.toByteArray();
  }

  private static boolean allowed(int c) {
    return c >= 0x21 && c <= 0x7E;
  }
}
