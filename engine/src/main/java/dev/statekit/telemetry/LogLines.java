package dev.statekit.telemetry;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Map;

/** Renders a {@link LogEvent} as one line, JSON or text; never a line break inside. */
final class LogLines {
  /** Text lines keep this many frames of an error's stack trace. */
  private static final int TEXT_FRAMES = 6;

  private LogLines() {}

  static String json(LogEvent event) {
    StringBuilder out = new StringBuilder(256);
    out.append('{');
    JsonText.field(out, "timestamp", Instant.ofEpochMilli(event.timestampMillis()).toString());
    JsonText.field(out, "level", event.level().name());
    JsonText.field(out, "message", event.message());
    JsonText.field(out, "logger", event.logger());
    for (Map.Entry<String, String> field : event.fields().entrySet()) {
      JsonText.field(out, field.getKey(), field.getValue());
    }
    Throwable error = event.error();
    if (error != null) {
      JsonText.field(out, "errorType", error.getClass().getName());
      JsonText.field(out, "errorMessage", String.valueOf(error.getMessage()));
      // The whole trace, causes included, as one array field of the one line.
      out.append(",\"stackTrace\":[");
      String[] lines = stackTrace(error).split("\r?\n");
      for (int i = 0; i < lines.length; i++) {
        if (i > 0) {
          out.append(',');
        }
        JsonText.string(out, lines[i].strip());
      }
      out.append(']');
    }
    out.append('}');
    return out.toString();
  }

  static String text(LogEvent event) {
    StringBuilder out = new StringBuilder(160);
    out.append(Instant.ofEpochMilli(event.timestampMillis()))
        .append(' ')
        .append(String.format("%-5s", event.level().name()))
        .append(' ')
        .append(event.logger());
    if (!event.fields().isEmpty()) {
      out.append(" [");
      boolean first = true;
      for (Map.Entry<String, String> field : event.fields().entrySet()) {
        if (!first) {
          out.append(' ');
        }
        first = false;
        out.append(shortName(field.getKey())).append('=').append(field.getValue());
      }
      out.append(']');
    }
    out.append(' ').append(oneLine(event.message()));
    Throwable error = event.error();
    if (error != null) {
      out.append(" | ").append(oneLine(String.valueOf(error)));
      StackTraceElement[] frames = error.getStackTrace();
      for (int i = 0; i < Math.min(TEXT_FRAMES, frames.length); i++) {
        out.append(i == 0 ? " at " : " < ").append(frames[i]);
      }
      if (frames.length > TEXT_FRAMES) {
        out.append(" < ...");
      }
      for (Throwable cause = error.getCause(); cause != null && cause != error; ) {
        out.append(" | caused by ").append(oneLine(String.valueOf(cause)));
        if (cause.getCause() == cause) {
          break;
        }
        cause = cause.getCause();
      }
    }
    return out.toString();
  }

  private static String shortName(String field) {
    return Telemetry.REQUEST_ID.equals(field) ? "request" : field;
  }

  private static String oneLine(String text) {
    return text.indexOf('\n') < 0 && text.indexOf('\r') < 0
        ? text
        : text.replace("\r\n", " \u21b5 ").replace('\n', ' ').replace('\r', ' ');
  }

  private static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}
