package dev.statekit.stream.lambda;

import java.util.List;

/**
 * What one scheduled tick did.
 *
 * @param idleSplits the splits whose watermark the tick moved on because no batch came for the idle
 *     timeout
 * @param windowsFired window results the tick emitted
 * @param watermark the pipeline's event time for firing: windows ending at or before it fired
 * @param deferredDelivered messages whose outputs the tick delivered from their receipts, where a
 *     batch had deferred them ({@link DeferredMessage})
 */
public record TickResult(
    List<String> idleSplits, int windowsFired, long watermark, int deferredDelivered) {
  /** Copies the list. */
  public TickResult {
    idleSplits = List.copyOf(idleSplits);
  }
}
