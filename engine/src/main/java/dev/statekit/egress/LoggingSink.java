package dev.statekit.egress;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * Writes each record as one log line ({@code egress <egress> <id> from <address>: <value>}) through
 * {@link System.Logger} (on Lambda it lands in CloudWatch Logs). For development, audits and
 * egresses nobody reads yet.
 */
public final class LoggingSink implements EgressSink {
  private final Logger logger;

  /** Logs to the logger {@code dev.statekit.egress}. */
  public LoggingSink() {
    this(System.getLogger("dev.statekit.egress"));
  }

  /** Logs to {@code logger}. */
  public LoggingSink(Logger logger) {
    this.logger = logger;
  }

  @Override
  public void deliver(List<EgressRecord> records) {
    for (EgressRecord record : records) {
      logger.log(
          Level.INFO,
          () ->
              "egress "
                  + record.egress()
                  + " "
                  + record.id()
                  + " from "
                  + record.source()
                  + ": "
                  + record.textOrBase64());
    }
  }

  @Override
  public String toString() {
    return "LoggingSink";
  }
}
