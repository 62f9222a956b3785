package dev.statekit.telemetry;

/** JSON strings and numbers written by hand: the log path loads no JSON library. */
final class JsonText {
  private JsonText() {}

  static void string(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\r':
          out.append("\\r");
          break;
        case '\t':
          out.append("\\t");
          break;
        default:
          // C1 controls (NEL among them) and the Unicode separators: some readers break lines
          // there.
          if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }

  static void field(StringBuilder out, String name, String value) {
    if (out.charAt(out.length() - 1) != '{') {
      out.append(',');
    }
    string(out, name);
    out.append(':');
    string(out, value);
  }

  /** A finite number as JSON (NaN and infinities are no JSON; they are written as 0). */
  static void number(StringBuilder out, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      out.append('0');
    } else if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      out.append((long) value);
    } else {
      out.append(value);
    }
  }
}
