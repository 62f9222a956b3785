package dev.statekit.runtime;

/**
 * What a sweep did (one sweep, or the sweeps of one call): the delayed messages it sent, and the
 * outboxes it delivered whose batch did not finish delivering them.
 *
 * @param sent due delayed messages sent to their targets
 * @param failed due messages that could not be sent (the next sweep tries again)
 * @param more whether due messages were left: more than one sweep sends, or the time ran out (sweep
 *     again soon; the next scheduled run carries on)
 * @param outboxes outboxes the sweep delivered, or dead-lettered once tried as often as a message
 *     may be
 * @param outboxesLeft outboxes it tried and could not deliver yet (it tries again later)
 */
public record SweepResult(int sent, int failed, boolean more, int outboxes, int outboxesLeft) {
  /** A sweep of delayed messages alone. */
  public SweepResult(int sent, int failed, boolean more) {
    this(sent, failed, more, 0, 0);
  }
}
