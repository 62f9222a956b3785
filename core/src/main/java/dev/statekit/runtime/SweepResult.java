package dev.statekit.runtime;

/**
 * What one timer sweep did.
 *
 * @param sent due delayed messages sent to their targets
 * @param failed due messages that could not be sent (the next sweep tries again)
 * @param more whether more were due than one sweep sends (sweep again soon)
 */
public record SweepResult(int sent, int failed, boolean more) {}
