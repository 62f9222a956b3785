package dev.statekit.stream.lambda;

import java.util.List;
import java.util.Optional;

/**
 * What processing one {@link SourceBatch} did.
 *
 * @param failedOffsets what to answer Lambda as {@code batchItemFailures}: for an ordered split the
 *     first failed record's sequence number (Lambda resumes there), for an unordered one every
 *     failed message id; records the batch did not take by its deadline ({@link
 *     BatchPipeline#process(SourceBatch, dev.statekit.Deadline)}) count as failed; empty when the
 *     whole batch succeeded
 * @param failure why the first failed record failed, if one did (for records not taken by the
 *     deadline, that nothing failed)
 * @param applied records applied to state (or passed on, in a pipeline without state)
 * @param repeats records skipped because this split's earlier batches had applied them already
 * @param late records that arrived after every window they belong to had closed
 * @param windowsFired window results this batch emitted
 * @param watermark the pipeline's event time after the batch: windows ending at or before it fired
 */
public record BatchResult(
    List<String> failedOffsets,
    Optional<String> failure,
    int applied,
    int repeats,
    int late,
    int windowsFired,
    long watermark) {
  /** Copies the list. */
  public BatchResult {
    failedOffsets = List.copyOf(failedOffsets);
  }

  /**
   * How {@link #failure()} ends when the records answered failed only come again later (the batch
   * stopped at its deadline, a key reached its share of its item), nothing having failed.
   */
  public static final String NOTHING_FAILED = "nothing failed";

  /** True if no record failed. */
  public boolean succeeded() {
    return failedOffsets.isEmpty();
  }

  /**
   * True if some records are answered failed and the reason given is that they only come again
   * later, nothing having failed ({@link #NOTHING_FAILED}).
   */
  public boolean onlyWaits() {
    return !succeeded() && failure.map(why -> why.endsWith(NOTHING_FAILED)).orElse(false);
  }
}
