package dev.statekit.telemetry;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Trace ids: what follows one request across functions, delayed messages, egress records and dead
 * letters. They have the form of an AWS X-Ray trace id ({@code 1-<8 hex>-<24 hex>}), so that the
 * root of an X-Ray trace header can be one, but any string of 1 to {@link #MAX_LENGTH} printable
 * ASCII characters without spaces is taken from a caller.
 */
public final class TraceIds {
  /** The longest trace id a caller may give. */
  public static final int MAX_LENGTH = 64;

  private static final HexFormat HEX = HexFormat.of();

  /**
   * Not ThreadLocalRandom: environments restored from one SnapStart snapshot share its seed, and
   * would make the same trace ids in the same order.
   */
  private static final SecureRandom RANDOM = new SecureRandom();

  private TraceIds() {}

  /** A new trace id, the current time in its first part as X-Ray's are. */
  public static String newId() {
    byte[] random = new byte[12];
    RANDOM.nextBytes(random);
    return "1-" + epochHex() + "-" + HEX.formatHex(random);
  }

  /**
   * A trace id made from {@code basis} (a request id, a queue message id): the same basis gives the
   * same id, so a message delivered again keeps its trace. The first part is the current time only
   * when {@code basis} is new; it is a hash too, so that it is stable.
   */
  public static String derivedFrom(String basis) {
    byte[] digest = sha256(basis);
    return "1-" + HEX.formatHex(digest, 0, 4) + "-" + HEX.formatHex(digest, 4, 16);
  }

  /**
   * The root of an X-Ray trace header ({@code Root=1-...;Parent=...;Sampled=1}, as Lambda passes it
   * in the {@code com.amazonaws.xray.traceHeader} system property), or {@code null} if {@code
   * header} is null or has no valid root.
   */
  public static String fromXRayHeader(String header) {
    if (header == null) {
      return null;
    }
    for (String part : header.split(";")) {
      String trimmed = part.trim();
      if (trimmed.startsWith("Root=")) {
        String root = trimmed.substring("Root=".length());
        return isValid(root) ? root : null;
      }
    }
    return null;
  }

  /** Whether {@code id} is acceptable as a trace id from a caller. */
  public static boolean isValid(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c <= ' ' || c > '~' || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code id} if valid.
   *
   * @throws IllegalArgumentException saying what a trace id may be
   */
  public static String requireValid(String id) {
    if (!isValid(id)) {
      throw new IllegalArgumentException(
          "A trace id is 1 to "
              + MAX_LENGTH
              + " printable ASCII characters without spaces, quotes or backslashes"
              + " (e.g. an X-Ray trace id 1-5759e988-bd862e3fe1be46a994272793), got "
              + (id == null ? "null" : "'" + id + "'"));
    }
    return id;
  }

  private static String epochHex() {
    return String.format("%08x", System.currentTimeMillis() / 1000);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JDK has SHA-256", e);
    }
  }
}
