package dev.statekit.runtime.internal;

/** What became of one delivery (a queue message or a direct invocation), or of one invocation. */
enum DeliveryOutcome {
  /** Applied now. */
  APPLIED,
  /** Applied before: dropped. */
  DUPLICATE,
  /** Refused for good and sent to the dead-letter queue (or answered, for a direct invoke). */
  DEAD_LETTERED,
  /** Failed for now: to be delivered again. */
  FAILED,
  /** A fired timer's message left unapplied on its last attempt: its timer sends it again. */
  DEFERRED;

  /** The outcome of a whole delivery from its invocations' outcomes. */
  static DeliveryOutcome combine(DeliveryOutcome a, DeliveryOutcome b) {
    if (a == null) {
      return b;
    }
    if (a == FAILED || b == FAILED) {
      return FAILED;
    }
    if (a == APPLIED || b == APPLIED) {
      return APPLIED;
    }
    if (a == DEAD_LETTERED || b == DEAD_LETTERED) {
      return DEAD_LETTERED;
    }
    if (a == DEFERRED || b == DEFERRED) {
      return DEFERRED;
    }
    return DUPLICATE;
  }
}
