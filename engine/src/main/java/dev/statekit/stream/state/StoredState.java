package dev.statekit.stream.state;

/**
 * A key's stored state in two versions: the one written at checkpoint {@code version} and the one
 * before it. A reader takes the newest version that belongs to a complete checkpoint, so a crash
 * while a later checkpoint is being written never exposes its half-written state.
 *
 * @param version the checkpoint that wrote {@code value}
 * @param value the encoded state, or null if the key had no state then
 * @param previousVersion the checkpoint that wrote {@code previousValue}, 0 if none
 * @param previousValue the older encoded state, or null
 */
public record StoredState(long version, byte[] value, long previousVersion, byte[] previousValue) {
  /** The newest value that {@code lineage} accepts, or null. */
  public byte[] valueAsOf(CheckpointLineage lineage) {
    if (lineage.includes(version)) {
      return value;
    }
    return lineage.includes(previousVersion) ? previousValue : null;
  }

  /** The version {@link #valueAsOf} takes, or 0. */
  public long versionAsOf(CheckpointLineage lineage) {
    if (lineage.includes(version)) {
      return version;
    }
    return lineage.includes(previousVersion) ? previousVersion : 0;
  }
}
