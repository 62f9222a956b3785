package dev.statekit.stream.lambda;

import dev.statekit.telemetry.Log;
import java.util.List;

/**
 * Writes why a batch's records failed, for the consumers that answer Lambda with their ids alone:
 * the answer carries no reason, and SQS's redrive policy moves a message to its dead-letter queue
 * with no word of why, so without this line a message that fails on every receive, from its queue
 * and then from the dead-letter queue, leaves no trace of its error before the dead-letter queue's
 * retention deletes it.
 */
final class FailedRecordsLog {
  private static final Log LOG = Log.of(FailedRecordsLog.class);

  /** Ids named in one line, at most: a batch holds up to 10,000 records. */
  private static final int IDS = 10;

  private FailedRecordsLog() {}

  /**
   * Logs the batch's failed records, if any, with the first failure: a warning, unless the records
   * only come again later with nothing failed ({@link BatchPipeline#process(SourceBatch,
   * dev.statekit.Deadline)} stopping at its deadline, a key at its share of its item).
   *
   * @param goesBack where the failed records go, as the consumer's source handles them
   */
  static void report(String pipeline, SourceBatch batch, BatchResult result, String goesBack) {
    List<String> failed = result.failedOffsets();
    if (failed.isEmpty()) {
      return;
    }
    String why = result.failure().orElse("no reason given");
    boolean waits = result.onlyWaits();
    if (waits && !LOG.isEnabled(dev.statekit.telemetry.LogLevel.DEBUG)) {
      return;
    }
    String line =
        "Pipeline "
            + pipeline
            + ": "
            + failed.size()
            + (failed.size() == 1 ? " record" : " records")
            + " of "
            + batch.split()
            + " failed "
            + (failed.size() <= IDS ? failed : failed.subList(0, IDS) + " and more")
            + " and "
            + (failed.size() == 1 ? "goes" : "go")
            + " back "
            + goesBack
            + ". "
            + why;
    if (waits) {
      LOG.debug(line);
    } else {
      LOG.warn(line);
    }
  }
}
