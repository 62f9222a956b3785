package dev.statekit.telemetry;

import java.util.Map;
import java.util.Objects;

/**
 * One log record as it is written: when, how severe, which logger, the message, the error if any,
 * and the fields of the context it was logged in (the request id, the trace id, the subject).
 *
 * @param timestampMillis when it was logged, epoch milliseconds
 * @param level its level
 * @param logger the logger's name
 * @param message the message
 * @param error the error, or {@code null}
 * @param fields the context's fields, in the order they were set
 */
public record LogEvent(
    long timestampMillis,
    LogLevel level,
    String logger,
    String message,
    Throwable error,
    Map<String, String> fields) {
  /** Checks the parts. */
  public LogEvent {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(logger, "logger");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(fields, "fields");
  }
}
