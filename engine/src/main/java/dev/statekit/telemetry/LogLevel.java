package dev.statekit.telemetry;

import java.util.Locale;

/**
 * The levels of a log record, named as Lambda names them in {@code AWS_LAMBDA_LOG_LEVEL} and in the
 * {@code level} field of its JSON log format, least severe first.
 */
public enum LogLevel {
  TRACE,
  DEBUG,
  INFO,
  WARN,
  ERROR,
  FATAL;

  /**
   * The level {@code name} names, in any case ({@code WARNING} is taken for {@code WARN}).
   *
   * @throws IllegalArgumentException if it names none
   */
  public static LogLevel parse(String name) {
    String upper = name.trim().toUpperCase(Locale.ROOT);
    if (upper.equals("WARNING")) {
      return WARN;
    }
    try {
      return valueOf(upper);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Unknown log level '" + name + "'; use one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL", e);
    }
  }
}
