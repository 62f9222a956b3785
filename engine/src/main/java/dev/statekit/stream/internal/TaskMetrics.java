package dev.statekit.stream.internal;

/** Counters of one task, written by its thread only and summed when the run ends. */
public final class TaskMetrics {
  public long recordsIn;
  long recordsOut;

  /** Records that arrived after all their windows had fired. */
  public long late;

  /** Records a process function failed on and the policy dropped. */
  public long dropped;

  /** Records a process function failed on and the policy sent to a dead-letter sink. */
  public long deadLettered;
}
