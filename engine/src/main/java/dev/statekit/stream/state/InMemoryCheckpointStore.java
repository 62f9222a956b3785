package dev.statekit.stream.state;

import dev.statekit.StateKitException.Reason;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Checkpoints in this process's memory, for the embedded mode and tests. */
final class InMemoryCheckpointStore implements CheckpointStore {
  private final Map<String, Long> reserved = new HashMap<>();
  private final Map<String, Map<Long, Map<String, byte[]>>> parts = new HashMap<>();
  private final Map<String, CheckpointManifest> latest = new HashMap<>();

  @Override
  public synchronized long begin(String pipeline) {
    return reserved.merge(pipeline, 1L, Long::sum);
  }

  @Override
  public synchronized long lastReserved(String pipeline) {
    return reserved.getOrDefault(pipeline, 0L);
  }

  @Override
  public synchronized void writePart(String pipeline, long checkpointId, String part, byte[] data) {
    parts
        .computeIfAbsent(pipeline, p -> new HashMap<>())
        .computeIfAbsent(checkpointId, id -> new HashMap<>())
        .put(part, data.clone());
  }

  @Override
  public synchronized void complete(String pipeline, CheckpointManifest manifest) {
    CheckpointManifest current = latest.get(pipeline);
    if (current != null && java.util.Arrays.equals(current.toBytes(), manifest.toBytes())) {
      return; // a retry that meets its own completing write, as DynamoDB's store takes it
    }
    if (current != null && current.id() >= manifest.id()) {
      throw new StateStoreException(
          Reason.CONFLICT,
          "Checkpoint " + manifest.id() + " is older than complete checkpoint " + current.id());
    }
    Map<String, byte[]> written =
        parts.getOrDefault(pipeline, Map.of()).getOrDefault(manifest.id(), Map.of());
    for (String part : manifest.parts()) {
      if (!written.containsKey(part)) {
        throw new StateStoreException(
            Reason.INVALID_REQUEST,
            "Checkpoint " + manifest.id() + " lacks part '" + part + "': write parts first");
      }
    }
    latest.put(pipeline, manifest);
    parts.getOrDefault(pipeline, new HashMap<>()).keySet().removeIf(id -> id < manifest.id());
  }

  @Override
  public synchronized Optional<StoredCheckpoint> latest(String pipeline) {
    CheckpointManifest manifest = latest.get(pipeline);
    if (manifest == null) {
      return Optional.empty();
    }
    // A pipeline whose state lives only in the state table completes checkpoints without parts.
    Map<String, byte[]> stored =
        parts.getOrDefault(pipeline, Map.of()).getOrDefault(manifest.id(), Map.of());
    Map<String, byte[]> copy = new HashMap<>();
    for (String part : manifest.parts()) {
      copy.put(part, stored.get(part).clone());
    }
    return Optional.of(new StoredCheckpoint(manifest, copy));
  }
}
