package dev.statekit.telemetry;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

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
        // Field values are user data (an address id): a line break in one must not forge a line.
        out.append(oneLine(shortName(field.getKey())))
            .append('=')
            .append(oneLine(field.getValue()));
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
      // Causes may loop back anywhere in the chain (initCause allows it): each is named once.
      Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
      seen.add(error);
      for (Throwable cause = error.getCause(); cause != null && seen.add(cause); ) {
        out.append(" | caused by ").append(oneLine(String.valueOf(cause)));
        cause = cause.getCause();
      }
    }
    return out.toString();
  }

  private static String shortName(String field) {
    return Telemetry.REQUEST_ID.equals(field) ? "request" : field;
  }

  private static String oneLine(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (breaksLine(text.charAt(i))) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        String crlf = text.replace("\r\n", " \u21b5 ");
        for (int j = 0; j < crlf.length(); j++) {
          char c = crlf.charAt(j);
          out.append(breaksLine(c) ? ' ' : c);
        }
        return out.toString();
      }
    }
    return text;
  }

  /** A character some reader of the log may take for the end of a line. */
  private static boolean breaksLine(char c) {
    return c == '\n'
        || c == '\r'
        || c == '\u000b'
        || c == '\f'
        || c == '\u0085'
        || c == '\u2028'
        || c == '\u2029';
  }

  private static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}
