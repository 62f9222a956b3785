package dev.statekit.stream.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What every state backend promises; run against the in-memory and the DynamoDB table. */
abstract class StateBackendContract {
  private static final Serde<Object> KEYS = Serdes.auto();
  private static final Serde<Object> WINDOWS = Serdes.auto();
  private static final StateSpec<ValueState<Long>> SUM = StateSpec.value("sum", Serdes.longs());
  private static final StateSpec<ListState<String>> SEEN = StateSpec.list("seen", Serdes.string());
  private static final StateSpec<MapState<String, Long>> COUNTS =
      StateSpec.map("counts", Serdes.string(), Serdes.longs());

  private final String pipeline = "p" + UUID.randomUUID().toString().substring(0, 8);
  private CountingStateTable table;

  /** The table under test; one per test class is fine, pipelines don't share items. */
  abstract StateTable table();

  private CountingStateTable counted() {
    if (table == null) {
      table = new CountingStateTable(table());
    }
    return table;
  }

  private Handles open(CheckpointLineage lineage, int maxKeys) {
    KeyedStateStore store =
        StateBackend.over(counted(), maxKeys).open(pipeline, "op", KEYS, WINDOWS, lineage);
    return new Handles(store, store.register(SUM), store.register(SEEN), store.register(COUNTS));
  }

  record Handles(
      KeyedStateStore store,
      ValueState<Long> sum,
      ListState<String> seen,
      MapState<String, Long> counts) {
    Long sumOf(Object key) {
      store.setCurrentKey(key);
      return sum.value();
    }

    void setSum(Object key, long value) {
      store.setCurrentKey(key);
      sum.update(value);
    }

    void checkpoint(long id) {
      store.flush(id);
      store.checkpointComplete(id);
    }
  }

  private static CheckpointLineage upTo(long id, long[]... abandoned) {
    return new CheckpointLineage(id, List.of(abandoned));
  }

  @Test
  void valueListAndMapStatePerKeyAndNamespace() {
    Handles h = open(CheckpointLineage.EMPTY, 1000);
    TimeWindow w1 = new TimeWindow(0, 10);
    TimeWindow w2 = new TimeWindow(10, 20);
    h.store.setCurrentKey("a");
    h.sum.update(5L);
    h.seen.add("x");
    h.counts.put("x", 1L);
    h.store.setNamespace(w1);
    h.sum.update(7L);
    h.seen.add("y");
    h.store.setNamespace(w2);
    h.counts.put("z", 3L);
    h.store.setCurrentKey("b");
    h.sum.update(9L);

    h.store.setCurrentKey("a");
    assertEquals(5L, h.sum.value());
    assertEquals(List.of("x"), h.seen.get());
    assertEquals(Map.of("x", 1L), h.counts.entries());
    assertEquals(Set.of(w1, w2), Set.copyOf(h.store.namespaces()));
    h.store.setNamespace(w1);
    assertEquals(7L, h.sum.value());
    assertEquals(List.of("y"), h.seen.get());
    assertTrue(h.counts.entries().isEmpty());
    h.sum.clear();
    h.seen.clear();
    assertEquals(List.of(w2), List.copyOf(h.store.namespaces()), "an emptied namespace is gone");
    assertEquals(9L, h.sumOf("b"));
    assertNull(h.sumOf("c"));
  }

  @Test
  void aRestoreSeesTheLatestCompleteCheckpoint() {
    Handles h = open(CheckpointLineage.EMPTY, 1000);
    h.store.setCurrentKey("a");
    h.sum.update(1L);
    h.seen.add("one");
    h.store.setNamespace(new TimeWindow(0, 5));
    h.counts.put("w", 2L);
    h.setSum(42L, 4);
    h.checkpoint(1);
    h.setSum("a", 2);
    h.store.flush(2); // written, but checkpoint 2 never completes

    Handles restored = open(upTo(1), 1000);
    assertEquals(1L, restored.sumOf("a"));
    assertEquals(List.of("one"), restored.seen.get());
    restored.store.setNamespace(new TimeWindow(0, 5));
    assertEquals(Map.of("w", 2L), restored.counts.entries());
    assertEquals(4L, restored.sumOf(42L), "non-string keys are found again");
    assertEquals(2L, open(upTo(2), 1000).sumOf("a"));
  }

  @Test
  void writesOfAnAbandonedCheckpointNeverCountLater() {
    Handles h = open(CheckpointLineage.EMPTY, 1000);
    h.setSum("a", 1);
    h.setSum("b", 1);
    h.checkpoint(1);
    h.setSum("a", 2);
    h.store.flush(2); // the run dies while checkpoint 2 is being written

    Handles second = open(upTo(1, new long[] {2, 2}), 1000);
    assertEquals(1L, second.sumOf("a"));
    second.setSum("b", 3);
    second.checkpoint(3); // "a" is not rewritten: its item still holds the abandoned write

    Handles third = open(upTo(3, new long[] {2, 2}), 1000);
    assertEquals(1L, third.sumOf("a"));
    assertEquals(3L, third.sumOf("b"));
  }

  @Test
  void aCheckpointWritesOnlyTheKeysChangedSinceTheLastOne() {
    Handles h = open(CheckpointLineage.EMPTY, 100_000);
    IntStream.range(0, 500).forEach(i -> h.setSum("k" + i, i));
    h.checkpoint(1);
    int before = counted().itemsWritten.get();
    h.setSum("k1", 100);
    h.setSum("k2", 200);
    h.setSum("k1", 101);
    h.checkpoint(2);
    assertEquals(2, counted().itemsWritten.get() - before);
    assertEquals(101L, open(upTo(2), 1000).sumOf("k1"));
  }

  @Test
  void clearedKeysAreDeletedOnceTheirCheckpointCompletes() {
    Handles h = open(CheckpointLineage.EMPTY, 1000);
    h.setSum("gone", 1);
    h.checkpoint(1);
    h.store.setCurrentKey("gone");
    h.sum.clear();
    h.checkpoint(2);
    assertNull(open(upTo(2), 1000).sumOf("gone"));
    assertEquals(1L, open(upTo(1), 1000).sumOf("gone"), "checkpoint 1 still reads its version");
    h.setSum("other", 1);
    h.checkpoint(3);
    String scope = pipeline + "#op";
    assertTrue(table().read(scope, List.of("gone")).isEmpty(), "the item was deleted");
    assertEquals(1, table().read(scope, List.of("other")).size());
  }

  @Test
  void evictedKeysAreReadBackInBatches() {
    Handles h = open(CheckpointLineage.EMPTY, 10);
    IntStream.range(0, 60).forEach(i -> h.setSum("k" + i, i));
    h.checkpoint(1);
    assertTrue(h.store.cachedKeys() <= 10, "evicted after the checkpoint: " + h.store.cachedKeys());
    assertTrue(h.store.wantsPrefetch());
    int calls = counted().readCalls.get();
    h.store.prefetch(IntStream.range(0, 60).mapToObj(i -> "k" + i).toList());
    assertEquals(1, counted().readCalls.get() - calls, "one read for all missing keys");
    IntStream.range(0, 60).forEach(i -> assertEquals(i, h.sumOf("k" + i)));
    assertEquals(1, counted().readCalls.get() - calls, "prefetched keys are cached");
  }

  @Test
  void specsAreRegisteredOnceAndBeforeUse() {
    KeyedStateStore store =
        StateBackend.over(counted(), 10)
            .open(pipeline, "specs", KEYS, WINDOWS, CheckpointLineage.EMPTY);
    store.register(SUM);
    assertThrows(IllegalArgumentException.class, () -> store.register(StateSpec.value("sum")));
    store.setCurrentKey("a");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.register(SEEN));
    assertTrue(e.getMessage().contains("before the first key"), e.getMessage());
  }

  @Test
  void collectionsListTheirItemsAndForgetDeletedOnes() {
    String timers = pipeline + "#op#timers";
    String other = pipeline + "#other#timers";
    assertEquals(Map.of(), table().readCollection(timers));
    byte[] big = new byte[300 * 1024];
    big[big.length - 1] = 7;
    table().writeCollection(timers, Map.of("5#1#0#0", new byte[] {1}, "9#1#0#0", big), List.of());
    table().writeCollection(other, Map.of("5#1#0#0", new byte[] {2}), List.of());
    table()
        .writeCollection(timers, Map.of("7#2#1#0", new byte[] {3}), List.of("5#1#0#0", "absent"));

    Map<String, byte[]> items = table().readCollection(timers);
    assertEquals(Set.of("9#1#0#0", "7#2#1#0"), items.keySet());
    assertEquals(7, items.get("9#1#0#0")[big.length - 1]);
    assertEquals(3, items.get("7#2#1#0")[0]);
    assertEquals(2, table().readCollection(other).get("5#1#0#0")[0]);
  }

  /**
   * A key's state past DynamoDB's 400 KB item (a list state buffering a window's records) is
   * refused at the flush on every table: the in-memory one took it, so a pipeline that checkpointed
   * locally failed every checkpoint on AWS.
   */
  @Test
  void aKeysStateOverDynamoDbsItemLimitIsRefusedAtTheFlush() {
    Handles h = open(CheckpointLineage.EMPTY, 1000);
    h.store.setCurrentKey("big");
    String record = "x".repeat(1024);
    for (int i = 0; i < 420; i++) {
      h.seen.add(record);
    }
    StateStoreException e = assertThrows(StateStoreException.class, () -> h.store.flush(1));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason());
  }

  /** A key past DynamoDB's partition key is refused at the flush on every table. */
  @Test
  void aKeyLongerThanDynamoDbsPartitionKeyIsRefusedAtTheFlush() {
    Handles h = open(CheckpointLineage.EMPTY, 1000);
    h.setSum("k".repeat(2100), 1);
    StateStoreException e = assertThrows(StateStoreException.class, () -> h.store.flush(1));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason());
    assertTrue(e.getMessage().contains("key by something shorter"), e.getMessage());
  }

  /**
   * A string key is stored as itself in DynamoDB's partition key, and DynamoDB cannot carry a
   * string that is not valid UTF-16: a key holding an unpaired surrogate (a user id cut in the
   * middle of an emoji) fails every BatchWriteItem with a 400 SerializationException, for good. The
   * in-memory table took it, so a pipeline keyed by such ids checkpointed in memory and failed
   * every checkpoint on AWS (with the 24 other keys of its write request).
   */
  @Test
  void aStringKeyWithAnUnpairedSurrogateIsRefusedAtTheFlush() {
    Handles h = open(CheckpointLineage.EMPTY, 1000);
    h.setSum("user-\uD83D", 1);
    StateStoreException e = assertThrows(StateStoreException.class, () -> h.store.flush(1));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason(), e.getMessage());
  }

  /** A collection item's key is a sort key: an unpaired surrogate is refused as in a state key. */
  @Test
  void aCollectionItemKeyWithAnUnpairedSurrogateIsRefused() {
    StateStoreException e =
        assertThrows(
            StateStoreException.class,
            () ->
                table()
                    .writeCollection(
                        pipeline + "#op#timers", Map.of("t\uDC00", new byte[3]), List.of()));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason(), e.getMessage());
  }

  /** A collection item (a window operator's timers) past 400 KB is refused on every table. */
  @Test
  void aCollectionItemOverDynamoDbsItemLimitIsRefused() {
    StateStoreException e =
        assertThrows(
            StateStoreException.class,
            () ->
                table()
                    .writeCollection(
                        pipeline + "#op#timers", Map.of("t1", new byte[400 * 1024]), List.of()));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason());
  }

  /**
   * After a restore a key past DynamoDB's partition key is read before it is written: DynamoDB's
   * table failed the read with DynamoDB's bare ValidationException while the in-memory one read
   * nothing; both now refuse the read saying what to do.
   */
  @Test
  void aKeyLongerThanDynamoDbsPartitionKeyReadAfterARestoreIsRefusedWithWhatToDo() {
    Handles h = open(upTo(1), 1000);
    String key = "k".repeat(2100);
    StateStoreException e =
        assertThrows(
            StateStoreException.class,
            () -> {
              Long before = h.sumOf(key);
              h.setSum(key, before == null ? 1 : before + 1);
              h.store.flush(2);
            });
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason(), e.getMessage());
    assertTrue(e.getMessage().contains("key by something shorter"), e.getMessage());
  }

  /** A key ending exactly at DynamoDB's partition key (pipe#, the scope, #, the key) is taken. */
  @Test
  void aKeyEndingExactlyAtDynamoDbsPartitionKeyIsTaken() {
    Handles h = open(CheckpointLineage.EMPTY, 1000);
    String scope = pipeline + "#op";
    String key = "k".repeat(2048 - "pipe#".length() - scope.length() - 1);
    h.setSum(key, 5);
    h.checkpoint(1);
    assertEquals(5L, open(upTo(1), 1000).sumOf(key));
  }
}
