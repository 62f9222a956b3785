package dev.statekit.stream.state;

import java.util.List;

/**
 * Which checkpoint ids stand: those up to the latest complete one, except ranges that were started
 * but abandoned by a failed run (their writes may be on disk, half done).
 *
 * @param latestComplete the latest complete checkpoint, 0 if none
 * @param abandoned ranges of abandoned ids, each {@code [from, to]} inclusive
 */
public record CheckpointLineage(long latestComplete, List<long[]> abandoned) {
  /** No checkpoint yet. */
  public static final CheckpointLineage EMPTY = new CheckpointLineage(0, List.of());

  /** Copies the ranges. */
  public CheckpointLineage {
    abandoned = List.copyOf(abandoned);
  }

  /** True if state written at checkpoint {@code id} is part of the restorable state. */
  public boolean includes(long id) {
    if (id <= 0 || id > latestComplete) {
      return false;
    }
    for (long[] range : abandoned) {
      if (id >= range[0] && id <= range[1]) {
        return false;
      }
    }
    return true;
  }

  /** This lineage with a later checkpoint complete. */
  public CheckpointLineage completedUpTo(long id) {
    return new CheckpointLineage(Math.max(id, latestComplete), abandoned);
  }
}
