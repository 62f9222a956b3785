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
            String message = record.getMessage();
            activity.log("egress", message.startsWith("egress ") ? message.substring(7) : message);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
  }
}
