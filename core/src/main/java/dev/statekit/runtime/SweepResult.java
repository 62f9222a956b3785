package dev.statekit.runtime;

/**
 * What a timer sweep did (one sweep, or the sweeps of one call).
 *
 * @param sent due delayed messages sent to their targets
 * @param failed due messages that could not be sent (the next sweep tries again)
 * @param more whether due messages were left: more than one sweep sends, or the time ran out (sweep
 *     again soon; the next scheduled run carries on)
 */
public record SweepResult(int sent, int failed, boolean more) {}
