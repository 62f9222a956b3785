package dev.statekit.local;

import dev.statekit.local.emulation.Activity;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Shows the records of the logging egress sink ({@code dev.statekit.egress}, through the JDK's
 * logging), the runtime's word on each message that comes again ({@code dev.statekit.runtime}:
 * which one, and why) and any logger a scenario names as activity lines, one per record, instead of
 * the JDK's two-line default format.
 */
final class EgressLog {
  private static final Logger EGRESS = Logger.getLogger("dev.statekit.egress");
  private static final Logger RETRIES =
      Logger.getLogger(dev.statekit.runtime.FunctionRuntime.FAILURES_LOGGER);

  private EgressLog() {}

  private static final java.util.regex.Pattern LINE =
      java.util.regex.Pattern.compile(
          "egress (\\S+) \\S+ from \\S+: (.*)", java.util.regex.Pattern.DOTALL);

  /** {@code egress <egress> <id> from <address>: <value>} becomes {@code <egress>: <value>}. */
  static String readable(String message) {
    java.util.regex.Matcher m = LINE.matcher(message);
    return m.matches() ? m.group(1) + ": " + m.group(2) : message;
  }

  /** Also the loggers {@code application} names, if any. */
  static void showOn(Activity activity, dev.statekit.application.Application application) {
    showOn(activity);
    if (application != null) {
      application
          .activityLogs()
          .forEach((logger, label) -> show(Logger.getLogger(logger), label, activity));
    }
  }

  static void showOn(Activity activity) {
    show(EGRESS, "egress", activity);
    show(RETRIES, "retry", activity);
  }

  static void show(Logger logger, String label, Activity activity) {
    for (Handler old : logger.getHandlers()) {
      logger.removeHandler(old);
    }
    logger.setUseParentHandlers(false);
    logger.setLevel(Level.INFO);
    logger.addHandler(
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            activity.log(label, readable(record.getMessage()));
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
  }
}
