package dev.statekit.stream.state;

import java.util.Map;
import java.util.Optional;

/**
 * Where checkpoints are kept: a checkpoint's parts are written first and the checkpoint is marked
 * complete only after all of them, so a restore never sees a half-written checkpoint.
 */
public interface CheckpointStore {
  /**
   * Reserves the next checkpoint id of a pipeline, durably: ids are never reused, even by a run
   * that restores after a failure.
   */
  long begin(String pipeline);

  /** Writes one part of a checkpoint (an operator's snapshot on one worker). */
  void writePart(String pipeline, long checkpointId, String part, byte[] data);

  /**
   * Marks a checkpoint complete after all its parts were written, and drops older checkpoints'
   * parts. A checkpoint older than the latest complete one is refused.
   *
   * @throws StateStoreException if a newer checkpoint is already complete
   */
  void complete(String pipeline, CheckpointManifest manifest);

  /** The latest complete checkpoint with its parts, or empty if there is none. */
  Optional<StoredCheckpoint> latest(String pipeline);

  /** The highest id {@link #begin} reserved, 0 if none. */
  long lastReserved(String pipeline);

  /**
   * A complete checkpoint as read back.
   *
   * @param manifest what the checkpoint covers
   * @param parts the parts, by name
   */
  record StoredCheckpoint(CheckpointManifest manifest, Map<String, byte[]> parts) {}

  /** Keeps checkpoints in this process's memory. */
  static CheckpointStore inMemory() {
    return new InMemoryCheckpointStore();
  }
}
