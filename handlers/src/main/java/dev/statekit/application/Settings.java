package dev.statekit.application;

import dev.statekit.handlers.Variables;
import java.time.Duration;

/** Reads an application's optional settings from its variables, refusing malformed values. */
public final class Settings {
  private Settings() {}

  /** The most {@link #seconds(Variables, String, Duration)} takes: a hundred years. */
  public static final Duration MOST_SECONDS = Duration.ofDays(36_525);

  /**
   * A number of seconds above 0 and at most {@link #MOST_SECONDS} in {@code name}, or {@code
   * otherwise} when it is not set.
   *
   * @throws IllegalStateException naming the variable and an example if it is malformed
   */
  public static Duration seconds(Variables variables, String name, Duration otherwise) {
    return seconds(variables, name, otherwise, MOST_SECONDS);
  }

  /**
   * A number of seconds from 1 to {@code most} in {@code name}, or {@code otherwise} when it is not
   * set: a value past what the setting can mean (a timeout longer than Lambda allows) fails where
   * the configuration is read, not in arithmetic at the first payload.
   *
   * @throws IllegalStateException naming the variable, its range and an example if it is malformed
   *     or out of range
   */
  public static Duration seconds(
      Variables variables, String name, Duration otherwise, Duration most) {
    String seconds = variables.optional(name).orElse(null);
    if (seconds == null) {
      return otherwise;
    }
    try {
      long value = Long.parseLong(seconds.trim());
      if (value > 0 && value <= most.toSeconds()) {
        return Duration.ofSeconds(value);
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalStateException(
        name
            + " is a number of seconds from 1 to "
            + most.toSeconds()
            + ", such as "
            + otherwise.toSeconds()
            + ", not '"
            + seconds
            + "'");
  }
}
