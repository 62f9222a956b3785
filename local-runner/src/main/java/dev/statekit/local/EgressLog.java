package dev.statekit.local;

import dev.statekit.local.emulation.Activity;
import dev.statekit.telemetry.LogOutput;

/**
 * Shows the records of the logging egress sink ({@code dev.statekit.egress}, through StateKit's
 * {@link dev.statekit.telemetry.Log}), the runtime's word on each message that comes again ({@code
 * dev.statekit.runtime}: which one, and why) and any logger a scenario names as activity lines, one
 * per record, instead of StateKit's log lines.
 */
final class EgressLog {
  private static final String EGRESS = "dev.statekit.egress";
  private static final String RETRIES = dev.statekit.runtime.FunctionRuntime.FAILURES_LOGGER;
  private static final String DEAD_LETTERS =
      dev.statekit.runtime.FunctionRuntime.DEAD_LETTERS_LOGGER;

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
      application.activityLogs().forEach((logger, label) -> show(logger, label, activity));
    }
  }

  static void showOn(Activity activity) {
    show(EGRESS, "egress", activity);
    show(RETRIES, "retry", activity);
    show(DEAD_LETTERS, "dead-letter", activity);
  }

  static void show(String logger, String label, Activity activity) {
    LogOutput.route(logger, event -> activity.log(label, readable(event.message())));
  }
}
