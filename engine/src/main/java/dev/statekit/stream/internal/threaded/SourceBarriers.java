package dev.statekit.stream.internal.threaded;

/**
 * Decides when the readers of a source inject checkpoint barriers, so that every reader injects
 * every checkpoint, in order. A reader triggers the next checkpoint once the interval has passed
 * and every reader injected the previous one; readers whose input ended keep injecting the
 * checkpoints others trigger, and the last of them to end triggers the final one.
 */
final class SourceBarriers {
  private final CheckpointCoordinator coordinator;
  private final int readers;
  private final long intervalNanos;
  private long lastTriggerAt = System.nanoTime();
  private long triggered;
  private int injected;
  private int ended;
  private long last;

  SourceBarriers(CheckpointCoordinator coordinator, int readers, long intervalNanos) {
    this.coordinator = coordinator;
    this.readers = readers;
    this.intervalNanos = intervalNanos;
    this.injected = readers;
  }

  /**
   * Called by a reading reader between polls: the checkpoint it should inject now, or 0. Triggers
   * the next checkpoint when it is due.
   */
  synchronized long due(long lastInjected, long now) {
    if (triggered > lastInjected) {
      return triggered;
    }
    if (intervalNanos > 0 && now - lastTriggerAt >= intervalNanos && injected == readers) {
      trigger(now);
      return triggered;
    }
    return 0;
  }

  private void trigger(long now) {
    triggered = coordinator.begin();
    injected = 0;
    lastTriggerAt = now;
    notifyAll();
  }

  /** A reader injected checkpoint {@code id}. */
  synchronized void injected(long id) {
    if (id == triggered) {
      injected++;
      triggerLastIfAllEnded();
    }
  }

  /** A reader's input ended (or it was asked to stop). */
  synchronized void ended() {
    ended++;
    triggerLastIfAllEnded();
  }

  private void triggerLastIfAllEnded() {
    if (ended == readers && injected == readers && last == 0) {
      trigger(System.nanoTime());
      last = triggered;
    }
  }

  /** Waits, after the reader's input ended, for the next checkpoint to inject. */
  synchronized long awaitNext(long lastInjected) throws InterruptedException {
    while (triggered <= lastInjected) {
      coordinator.throwIfFailed();
      wait(50);
    }
    return triggered;
  }

  /** True if {@code id} is the run's last checkpoint. */
  synchronized boolean isLast(long id) {
    return id == last;
  }
}
