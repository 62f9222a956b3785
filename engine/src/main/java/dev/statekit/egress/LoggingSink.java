package dev.statekit.egress;

import dev.statekit.telemetry.Log;
import dev.statekit.telemetry.Telemetry;
import java.util.List;

/**
 * Writes each record as one log line ({@code egress <egress> <id> from <address>: <value>}) through
 * StateKit's {@link Log} (on Lambda it lands in CloudWatch Logs), with the record's source as the
 * line's {@code address} and its trace id as its {@code traceId}. For development, audits and
 * egresses nobody reads yet.
 */
public final class LoggingSink implements EgressSink {
  private final Log log;
  private final System.Logger logger;

  /** Logs to the logger {@code dev.statekit.egress}. */
  public LoggingSink() {
    this.log = Log.named("dev.statekit.egress");
    this.logger = null;
  }

  /** Logs to the JDK logger {@code logger} instead. */
  public LoggingSink(System.Logger logger) {
    this.log = null;
    this.logger = logger;
  }

  @Override
  public void deliver(List<EgressRecord> records) {
    for (EgressRecord record : records) {
      String line =
          "egress "
              + record.egress()
              + " "
              + record.id()
              + " from "
              + record.source()
              + ": "
              + record.textOrBase64();
      if (logger != null) {
        logger.log(System.Logger.Level.INFO, line);
        continue;
      }
      String trace = record.traceId().orElse(null);
      try (Telemetry.Restore address =
              Telemetry.with(Telemetry.ADDRESS, record.source().toString());
          Telemetry.Restore traced =
              trace == null ? () -> {} : Telemetry.with(Telemetry.TRACE_ID, trace)) {
        log.info(line);
      }
    }
  }

  @Override
  public String toString() {
    return "LoggingSink";
  }
}
