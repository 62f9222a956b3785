package dev.statekit.telemetry;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where and how every {@link Log} writes: one line per record on standard output (Lambda sends each
 * line to CloudWatch Logs as one event), as JSON or text, from a level up. From the environment as
 * Lambda sets it: {@code AWS_LAMBDA_LOG_FORMAT} ({@code JSON} or {@code Text}, default text) and
 * {@code AWS_LAMBDA_LOG_LEVEL} (default {@code INFO}). A tool (the local runner) may route a
 * logger's records elsewhere ({@link #route}); tests may capture the lines ({@link #writeTo}).
 */
public final class LogOutput {
  /** The variable Lambda sets to its log format, {@code JSON} or {@code Text}. */
  public static final String FORMAT_VARIABLE = "AWS_LAMBDA_LOG_FORMAT";

  /** The variable Lambda sets to the application log level. */
  public static final String LEVEL_VARIABLE = "AWS_LAMBDA_LOG_LEVEL";

  private record Settings(
      LogFormat format, LogLevel level, PrintStream out, Map<String, Consumer<LogEvent>> routes) {}

  private static volatile Settings settings = fromEnvironment(System.getenv());

  private LogOutput() {}

  /** The format records are written in. */
  public static LogFormat format() {
    return settings.format();
  }

  /** The least severe level written. */
  public static LogLevel level() {
    return settings.level();
  }

  /** Writes records as {@code format} from {@code level} up, from now on. */
  public static synchronized void configure(LogFormat format, LogLevel level) {
    Settings now = settings;
    settings =
        new Settings(
            Objects.requireNonNull(format, "format"),
            Objects.requireNonNull(level, "level"),
            now.out(),
            now.routes());
  }

  /** Writes the lines to {@code out} from now on (standard output by default). */
  public static synchronized void writeTo(PrintStream out) {
    Settings now = settings;
    settings =
        new Settings(now.format(), now.level(), Objects.requireNonNull(out, "out"), now.routes());
  }

  /**
   * Hands the records of the logger {@code logger} (and of the loggers named below it, {@code
   * logger.*}) to {@code listener} instead of writing them, from the level set up, until the
   * returned handle closes.
   */
  public static synchronized Telemetry.Restore route(String logger, Consumer<LogEvent> listener) {
    Settings now = settings;
    Map<String, Consumer<LogEvent>> routes = new LinkedHashMap<>(now.routes());
    Consumer<LogEvent> before =
        routes.put(
            Objects.requireNonNull(logger, "logger"), Objects.requireNonNull(listener, "listener"));
    settings = new Settings(now.format(), now.level(), now.out(), Map.copyOf(routes));
    return () -> unroute(logger, listener, before);
  }

  private static synchronized void unroute(
      String logger, Consumer<LogEvent> listener, Consumer<LogEvent> before) {
    Settings now = settings;
    if (now.routes().get(logger) != listener) {
      return;
    }
    Map<String, Consumer<LogEvent>> routes = new LinkedHashMap<>(now.routes());
    if (before == null) {
      routes.remove(logger);
    } else {
      routes.put(logger, before);
    }
    settings = new Settings(now.format(), now.level(), now.out(), Map.copyOf(routes));
  }

  /** Back to the environment's format and level, standard output, no routes. */
  public static synchronized void reset() {
    settings = fromEnvironment(System.getenv());
  }

  /**
   * The settings {@code environment} gives; a value that names no format or level is reported on
   * the first line and the default used, so a typo never stops a function.
   */
  static synchronized void useEnvironment(Map<String, String> environment) {
    settings = fromEnvironment(environment);
  }

  static boolean enabled(LogLevel level) {
    return level.compareTo(settings.level()) >= 0;
  }

  static void write(LogEvent event) {
    Settings now = settings;
    if (!now.routes().isEmpty()) {
      Consumer<LogEvent> listener = routeOf(now.routes(), event.logger());
      if (listener != null) {
        listener.accept(event);
        return;
      }
    }
    String line = now.format() == LogFormat.JSON ? LogLines.json(event) : LogLines.text(event);
    // One println per record: a line is one CloudWatch event, whole.
    now.out().println(line);
  }

  private static Consumer<LogEvent> routeOf(Map<String, Consumer<LogEvent>> routes, String logger) {
    for (String name = logger; ; ) {
      Consumer<LogEvent> listener = routes.get(name);
      if (listener != null) {
        return listener;
      }
      int dot = name.lastIndexOf('.');
      if (dot < 0) {
        return null;
      }
      name = name.substring(0, dot);
    }
  }

  private static Settings fromEnvironment(Map<String, String> environment) {
    LogFormat format = LogFormat.TEXT;
    LogLevel level = LogLevel.INFO;
    String problem = null;
    String formatName = environment.get(FORMAT_VARIABLE);
    if (formatName != null && !formatName.isBlank()) {
      try {
        format = LogFormat.parse(formatName);
      } catch (IllegalArgumentException e) {
        problem = FORMAT_VARIABLE + ": " + e.getMessage();
      }
    }
    String levelName = environment.get(LEVEL_VARIABLE);
    if (levelName != null && !levelName.isBlank()) {
      try {
        level = LogLevel.parse(levelName);
      } catch (IllegalArgumentException e) {
        problem = LEVEL_VARIABLE + ": " + e.getMessage();
      }
    }
    Settings read = new Settings(format, level, System.out, Map.of());
    if (problem != null) {
      String message = problem + "; using " + format + " from " + level;
      LogEvent event =
          new LogEvent(
              System.currentTimeMillis(),
              LogLevel.WARN,
              "dev.statekit.telemetry",
              message,
              null,
              Map.of());
      read.out().println(format == LogFormat.JSON ? LogLines.json(event) : LogLines.text(event));
    }
    return read;
  }
}
