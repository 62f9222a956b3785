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
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JDK has SHA-256", e);
    }
  }

  private static boolean allowed(int c) {
    return c >= 0x21 && c <= 0x7E;
  }
}
