package dev.statekit.local;

import dev.statekit.local.emulation.Activity;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Shows the records of the logging egress sink ({@code dev.statekit.egress}, through the JDK's
 * logging) as activity lines, one per record, instead of the JDK's two-line default format.
 */
final class EgressLog {
  private static final Logger EGRESS = Logger.getLogger("dev.statekit.egress");

  private EgressLog() {}

  private static final java.util.regex.Pattern LINE =
      java.util.regex.Pattern.compile(
          "egress (\\S+) \\S+ from \\S+: (.*)", java.util.regex.Pattern.DOTALL);

  /** {@code egress <egress> <id> from <address>: <value>} becomes {@code <egress>: <value>}. */
  static String readable(String message) {
    java.util.regex.Matcher m = LINE.matcher(message);
    return m.matches() ? m.group(1) + ": " + m.group(2) : message;
  }

  static void showOn(Activity activity) {
    for (Handler old : EGRESS.getHandlers()) {
      EGRESS.removeHandler(old);
    }
    EGRESS.setUseParentHandlers(false);
    EGRESS.setLevel(Level.INFO);
    EGRESS.addHandler(
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            activity.log("egress", readable(record.getMessage()));
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
  }
}
