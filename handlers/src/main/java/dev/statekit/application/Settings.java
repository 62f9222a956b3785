package dev.statekit.application;

import dev.statekit.handlers.Variables;
import java.time.Duration;

/** Reads an application's optional settings from its variables, refusing malformed values. */
public final class Settings {
  private Settings() {}

  /**
   * A number of seconds above 0 in {@code name}, or {@code otherwise} when it is not set.
   *
   * @throws IllegalStateException naming the variable and an example if it is malformed
   */
  public static Duration seconds(Variables variables, String name, Duration otherwise) {
    String seconds = variables.optional(name).orElse(null);
    if (seconds == null) {
      return otherwise;
    }
    try {
      long value = Long.parseLong(seconds.trim());
      if (value > 0) {
        return Duration.ofSeconds(value);
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalStateException(
        name
            + " is a number of seconds above 0, such as "
            + otherwise.toSeconds()
            + ", not '"
            + seconds
            + "'");
  }
}
