package dev.statekit.stream.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every checkpoint store promises; run against the in-memory and the DynamoDB store. */
abstract class CheckpointStoreContract {
  private final String pipeline = "p" + UUID.randomUUID().toString().substring(0, 8);

  abstract CheckpointStore store();

  private static CheckpointManifest manifest(long id, Set<String> parts) {
    return new CheckpointManifest(
        id,
        Map.of("shard-1", "49" + id),
        1000 * id,
        parts,
        new CheckpointLineage(id, List.of(new long[] {0, 0})));
  }

  @Test
  void idsAreReservedInOrderAndNeverReused() {
    CheckpointStore store = store();
    assertEquals(0, store.lastReserved(pipeline));
    assertEquals(1, store.begin(pipeline));
    assertEquals(2, store.begin(pipeline));
    assertEquals(2, store.lastReserved(pipeline));
    assertEquals(1, store.begin("other-" + pipeline), "each pipeline counts alone");
  }

  @Test
  void aCheckpointIsVisibleOnlyOnceComplete() {
    CheckpointStore store = store();
    assertTrue(store.latest(pipeline).isEmpty());
    long id = store.begin(pipeline);
    byte[] big = new byte[900 * 1024]; // over one DynamoDB item: stored in chunks
    new Random(1).nextBytes(big);
    store.writePart(pipeline, id, "1.0-window/0", big);
    store.writePart(pipeline, id, "source", new byte[] {1, 2, 3});
    assertTrue(store.latest(pipeline).isEmpty(), "parts alone are not a checkpoint");
    store.complete(pipeline, manifest(id, Set.of("1.0-window/0", "source")));

    var latest = store.latest(pipeline).orElseThrow();
    assertEquals(id, latest.manifest().id());
    assertEquals(Map.of("shard-1", "49" + id), latest.manifest().positions());
    assertEquals(1000 * id, latest.manifest().watermark());
    assertEquals(1, latest.manifest().lineage().abandoned().size());
    assertArrayEquals(big, latest.parts().get("1.0-window/0"));
    assertArrayEquals(new byte[] {1, 2, 3}, latest.parts().get("source"));
  }

  @Test
  void aLaterCheckpointReplacesTheEarlierAndAnOlderOneIsRefused() {
    CheckpointStore store = store();
    long first = store.begin(pipeline);
    long second = store.begin(pipeline);
    store.writePart(pipeline, second, "source", new byte[] {2});
    store.complete(pipeline, manifest(second, Set.of("source")));
    store.writePart(pipeline, first, "source", new byte[] {1});
    StateStoreException e =
        assertThrows(
            StateStoreException.class,
            () -> store.complete(pipeline, manifest(first, Set.of("source"))));
    assertTrue(e.getMessage().contains("older"), e.getMessage());
    assertEquals(StateKitException.Reason.CONFLICT, e.reason(), "it lost a race: read again");
    long third = store.begin(pipeline);
    store.writePart(pipeline, third, "source", new byte[] {3});
    store.complete(pipeline, manifest(third, Set.of("source")));
    var latest = store.latest(pipeline).orElseThrow();
    assertEquals(third, latest.manifest().id());
    assertArrayEquals(new byte[] {3}, latest.parts().get("source"));
  }

  /**
   * A source split by file (SourcePosition names a file as a split) reading a directory of 10,000
   * files checkpoints a position per file: a manifest of about 700 KB, past DynamoDB's 400 KB item.
   * Every store keeps it and gives it back whole, as the in-memory store does; DynamoDB's store
   * kept the manifest in the head item, so every checkpoint of such a pipeline failed on AWS (with
   * DynamoDB's bare ValidationException) after checkpointing locally.
   */
  @Test
  void aCheckpointOfASourceWithManySplitsIsRestoredWithEveryPosition() {
    CheckpointStore store = store();
    Map<String, String> positions = new java.util.HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      positions.put(
          String.format("s3://app-logs/2026/12/06/host-%05d/events.json.gz", i), "12345678" + i);
    }
    long id = store.begin(pipeline);
    store.writePart(pipeline, id, "source", new byte[] {4});
    CheckpointManifest manifest =
        new CheckpointManifest(
            id, positions, 77, Set.of("source"), new CheckpointLineage(id, List.of()));
    assertTrue(manifest.toBytes().length > 400 * 1024, "past one DynamoDB item");
    store.complete(pipeline, manifest);
    store.complete(pipeline, manifest); // a retry meeting its own write passes, as for any

    var latest = store.latest(pipeline).orElseThrow();
    assertEquals(id, latest.manifest().id());
    assertEquals(positions, latest.manifest().positions());
    assertEquals(77, latest.manifest().watermark());
    assertArrayEquals(new byte[] {4}, latest.parts().get("source"));

    long next = store.begin(pipeline);
    store.complete(pipeline, manifest(next, Set.of()));
    assertEquals(
        Map.of("shard-1", "49" + next),
        store.latest(pipeline).orElseThrow().manifest().positions());
  }

  @Test
  void aCheckpointOfAPipelineThatNeverWroteAPartIsRestored() {
    // A job whose state lives only in the state table (reduce, no watermarks) has no parts.
    CheckpointStore store = store();
    long id = store.begin(pipeline);
    store.complete(pipeline, manifest(id, Set.of()));
    CheckpointStore.StoredCheckpoint latest = store.latest(pipeline).orElseThrow();
    assertEquals(id, latest.manifest().id());
    assertEquals(Map.of(), latest.parts());
    assertEquals(Map.of("shard-1", "49" + id), latest.manifest().positions());
  }

  @Test
  void aCheckpointWithoutItsPartsIsAnInvalidRequest() {
    CheckpointStore store = store();
    long id = store.begin(pipeline);
    StateStoreException e =
        assertThrows(
            StateStoreException.class,
            () -> {
              store.complete(pipeline, manifest(id, Set.of("never-written")));
              store.latest(pipeline);
            });
    assertTrue(e.getMessage().contains("never-written"), e.getMessage());
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason());
  }

  @Test
  void aCorruptManifestIsAnInvalidRequest() {
    StateStoreException e =
        assertThrows(
            StateStoreException.class, () -> CheckpointManifest.fromBytes(new byte[] {1, 2, 3}));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason());
    assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
  }

  /**
   * Completing a checkpoint again with the same manifest (a retry after a lost answer) passes on
   * every store: the in-memory one refused it as older than itself, a conflict DynamoDB's never
   * gives.
   */
  @Test
  void completingTheSameCheckpointAgainPasses() {
    CheckpointStore store = store();
    long id = store.begin(pipeline);
    store.writePart(pipeline, id, "source", new byte[] {7});
    CheckpointManifest manifest = manifest(id, Set.of("source"));
    store.complete(pipeline, manifest);
    store.complete(pipeline, manifest);
    assertEquals(id, store.latest(pipeline).orElseThrow().manifest().id());
  }
}
