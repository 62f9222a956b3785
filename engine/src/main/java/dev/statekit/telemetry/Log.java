package dev.statekit.telemetry;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * StateKit's logger: each record one line, written as {@link LogOutput} says (JSON on Lambda when
 * its JSON log format is on, readable text elsewhere), with the fields of the current {@link
 * Telemetry} context: the request id, the trace id and the subject. Cheap to hold in a static
 * field; a record below the level set costs one comparison.
 *
 * <pre>{@code
 * private static final Log LOG = Log.of(MyFunction.class);
 * LOG.warn("Payment refused", error);
 * }</pre>
 */
public final class Log {
  private final String name;

  private Log(String name) {
    this.name = name;
  }

  /** The logger named {@code name} (a package or class name, by convention). */
  public static Log named(String name) {
    return new Log(Objects.requireNonNull(name, "name"));
  }

  /** The logger named after {@code type}. */
  public static Log of(Class<?> type) {
    return new Log(type.getName());
  }

  /** The logger's name. */
  public String name() {
    return name;
  }

  /** Whether records at {@code level} are written. */
  public boolean isEnabled(LogLevel level) {
    return LogOutput.enabled(level);
  }

  /** Logs {@code message} at {@code level}, with {@code error} if not null. */
  public void log(LogLevel level, String message, Throwable error) {
    if (LogOutput.enabled(level)) {
      LogOutput.write(
          new LogEvent(
              System.currentTimeMillis(),
              level,
              name,
              String.valueOf(message),
              error,
              Telemetry.fields()));
    }
  }

  /** Logs the message {@code message} makes, only if {@code level} is written. */
  public void log(LogLevel level, Supplier<String> message) {
    if (LogOutput.enabled(level)) {
      log(level, message.get(), null);
    }
  }

  /** At {@link LogLevel#DEBUG}. */
  public void debug(String message) {
    log(LogLevel.DEBUG, message, null);
  }

  /** At {@link LogLevel#DEBUG}, with an error. */
  public void debug(String message, Throwable error) {
    log(LogLevel.DEBUG, message, error);
  }

  /** At {@link LogLevel#INFO}. */
  public void info(String message) {
    log(LogLevel.INFO, message, null);
  }

  /** At {@link LogLevel#INFO}, the message made only if written. */
  public void info(Supplier<String> message) {
    log(LogLevel.INFO, message);
  }

  /** At {@link LogLevel#WARN}. */
  public void warn(String message) {
    log(LogLevel.WARN, message, null);
  }

  /** At {@link LogLevel#WARN}, with an error. */
  public void warn(String message, Throwable error) {
    log(LogLevel.WARN, message, error);
  }

  /** At {@link LogLevel#ERROR}, with an error. */
  public void error(String message, Throwable error) {
    log(LogLevel.ERROR, message, error);
  }
}
