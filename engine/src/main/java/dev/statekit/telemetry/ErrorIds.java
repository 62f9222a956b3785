package dev.statekit.telemetry;

import java.security.SecureRandom;

/**
 * Ids that tie an error's answer to its log entry. Random, so they tell nothing of the process;
 * from {@link SecureRandom}, not {@code ThreadLocalRandom}, whose seed environments restored from
 * one SnapStart snapshot share, so that they would make the same ids in the same order.
 */
public final class ErrorIds {
  private static final SecureRandom RANDOM = new SecureRandom();

  private ErrorIds() {}

  /** A new id: 16 hex digits. */
  public static String next() {
    return String.format("%016x", RANDOM.nextLong());
  }
}
