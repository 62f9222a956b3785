package dev.statekit.telemetry;

import java.util.Locale;

/** How a log record is written: one line either way. */
public enum LogFormat {
  /**
   * One JSON object per line, the fields of Lambda's JSON log format ({@code timestamp}, {@code
   * level}, {@code message}, {@code logger}, {@code AWSRequestId}, on an error {@code errorType},
   * {@code errorMessage} and {@code stackTrace}) and the record's subject.
   */
  JSON,
  /** Readable text: time, level, logger, the subject in brackets, the message, the error. */
  TEXT;

  /**
   * The format {@code name} names ({@code JSON} or {@code Text}, as {@code AWS_LAMBDA_LOG_FORMAT}
   * gives it, in any case).
   *
   * @throws IllegalArgumentException if it names neither
   */
  public static LogFormat parse(String name) {
    switch (name.trim().toUpperCase(Locale.ROOT)) {
      case "JSON":
        return JSON;
      case "TEXT":
        return TEXT;
      default:
        throw new IllegalArgumentException(
            "Unknown log format '" + name + "'; use JSON or Text (AWS_LAMBDA_LOG_FORMAT's values)");
    }
  }
}
