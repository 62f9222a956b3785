package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.state.StateStoreException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every batch store promises; run against the in-memory store and DynamoDB. */
abstract class BatchStoreContract {
  private final String pipeline = "p" + UUID.randomUUID().toString().substring(0, 8);

  abstract BatchStore store();

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void keysAreWrittenOnlyOverTheVersionRead() {
    BatchStore store = store();
    assertEquals(Map.of(), store.readKeys(pipeline, "op", List.of("a", "b")));

    Set<String> conflicts =
        store.writeKeys(
            pipeline,
            "op",
            List.of(
                new KeyWrite("a", 0, bytes("one"), bytes("bk"), 0),
                new KeyWrite("b", 0, null, bytes("marks only"), 1_900_000_000L)));
    assertEquals(Set.of(), conflicts);
    Map<String, KeyItem> read = store.readKeys(pipeline, "op", List.of("a", "b", "c"));
    assertEquals(Set.of("a", "b"), read.keySet());
    assertEquals(1, read.get("a").version());
    assertArrayEquals(bytes("one"), read.get("a").state());
    assertArrayEquals(bytes("bk"), read.get("a").bookkeeping());
    assertNull(read.get("b").state());

    conflicts =
        store.writeKeys(
            pipeline,
            "op",
            List.of(
                new KeyWrite("a", 0, bytes("stale"), null, 0),
                new KeyWrite("b", 1, bytes("two"), null, 0),
                new KeyWrite("c", 3, bytes("never read"), null, 0)));
    assertEquals(Set.of("a", "c"), conflicts);
    read = store.readKeys(pipeline, "op", List.of("a", "b", "c"));
    assertArrayEquals(bytes("one"), read.get("a").state(), "a conflicting write changes nothing");
    assertEquals(2, read.get("b").version());
    assertArrayEquals(bytes("two"), read.get("b").state());
    assertNull(read.get("b").bookkeeping());
    assertFalse(read.containsKey("c"));
  }

  @Test
  void manyKeysAreReadAndWrittenTogether() {
    BatchStore store = store();
    List<KeyWrite> writes = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      keys.add("key-" + i);
      writes.add(new KeyWrite("key-" + i, 0, bytes("v" + i), null, 0));
    }
    assertEquals(Set.of(), store.writeKeys(pipeline, "op", writes));
    Map<String, KeyItem> read = store.readKeys(pipeline, "op", keys);
    assertEquals(250, read.size());
    assertArrayEquals(bytes("v249"), read.get("key-249").state());
    assertEquals(Map.of(), store.readKeys(pipeline, "other-op", keys), "operators are apart");
  }

  @Test
  void eachKeyOfALargeWriteIsFencedOnItsOwn() {
    BatchStore store = store();
    List<KeyWrite> first = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      first.add(
          new KeyWrite("k" + i, 0, bytes("one"), bytes("bk"), i % 2 == 0 ? 1_900_000_000L : 0));
    }
    assertEquals(Set.of(), store.writeKeys(pipeline, "op", first));

    // Every seventh write is stale (computed from no item although one exists); state goes and
    // comes back, expiries come and go.
    List<KeyWrite> second = new ArrayList<>();
    Set<String> stale = new HashSet<>();
    for (int i = 0; i < 60; i++) {
      boolean isStale = i % 7 == 3;
      if (isStale) {
        stale.add("k" + i);
      }
      second.add(
          new KeyWrite(
              "k" + i,
              isStale ? 0 : 1,
              i % 3 == 0 ? null : bytes("two"),
              bytes("bk2"),
              i % 2 == 0 ? 0 : 1_900_000_000L));
    }
    assertEquals(stale, store.writeKeys(pipeline, "op", second));

    Map<String, KeyItem> read =
        store.readKeys(pipeline, "op", second.stream().map(KeyWrite::key).toList());
    for (int i = 0; i < 60; i++) {
      KeyItem item = read.get("k" + i);
      if (stale.contains("k" + i)) {
        assertEquals(1, item.version(), "k" + i);
        assertArrayEquals(bytes("one"), item.state(), "a lost write changes nothing");
      } else {
        assertEquals(2, item.version(), "k" + i);
        assertArrayEquals(i % 3 == 0 ? null : bytes("two"), item.state(), "k" + i);
        assertArrayEquals(bytes("bk2"), item.bookkeeping(), "k" + i);
      }
    }
  }

  @Test
  void splitsAreWrittenOnlyOverTheVersionRead() {
    BatchStore store = store();
    SplitState first =
        new SplitState(
            "stream/shardId-000000000001",
            1,
            "49590338271490256608559692538361571095921575989136588898",
            "49590338271490256608559692538361571095921575989136588001",
            List.of(
                "49590338271490256608559692538361571095921575989136588002",
                "49590338271490256608559692538361571095921575989136588005"),
            1_000,
            900,
            950,
            1_700_000_000_000L,
            1_700_000_000_500L,
            899,
            List.of(
                new GivenUp(
                    "stream/shardId-000000000001",
                    null,
                    "49590338271490256608559692538361571095921575989136588000",
                    -5,
                    1_700_000_000_100L,
                    "49590338271490256608559692538361571095921575989136587999")));
    assertTrue(store.writeSplit(pipeline, first));
    assertFalse(store.writeSplit(pipeline, first), "version 1 exists already");
    assertTrue(store.writeSplit(pipeline, SplitState.fresh(SplitState.TICK).withVersion(1)));
    assertEquals(List.of(SplitState.TICK, first.split()), splitNames(store.readSplits(pipeline)));
    assertEquals(first, store.readSplits(pipeline).get(1));

    SplitState next = SplitState.fresh(first.split()).withVersion(2);
    assertFalse(
        store.writeSplit(pipeline, SplitState.fresh(first.split()).withVersion(3)),
        "version 2 is not stored");
    assertTrue(store.writeSplit(pipeline, next));
    assertEquals(next, store.readSplits(pipeline).get(1));
    assertEquals(List.of(), store.readSplits(pipeline + "-other"));
  }

  @Test
  void attemptsComeLatestFirstOrByRangeOfFirstOffsets() {
    BatchStore store = store();
    String split = "stream/shardId-000000000002";
    store.putAttempt(pipeline, split, new Attempt("100", "150", 7), 0);
    store.putAttempt(pipeline, split, new Attempt("99", "99", 6), 0);
    store.putAttempt(pipeline, split, new Attempt("151", "190", 8, 1_234), 1_900_000_000L);
    store.putAttempt(pipeline, split, new Attempt("100", "170", 9), 0); // a retry replaces it
    assertEquals(
        List.of(new Attempt("151", "190", 8, 1_234), new Attempt("100", "170", 9)),
        store.latestAttempts(pipeline, split, 2),
        "by number, not by text: 99 is the oldest");
    assertEquals(
        List.of(new Attempt("99", "99", 6), new Attempt("100", "170", 9)),
        store.attempts(pipeline, split, "99", "150"));
    assertEquals(List.of(), store.attempts(pipeline, split, "191", "500"));
    assertEquals(List.of(), store.latestAttempts(pipeline, "other-split", 5));
    assertEquals(List.of(), store.readSplits(pipeline), "attempts are apart from the splits");
  }

  /**
   * An attempt recorded in its shard's order is refused once a batch starting after it was: the
   * write of an invocation that died with it in flight, landing after Lambda moved on, must not
   * pass for a batch that applied its records. Retries of a batch, and batches after it, are
   * recorded; so is an attempt outside that order (a replay's), and other splits keep their own.
   */
  @Test
  void anAttemptInOrderIsRefusedOnceABatchAfterItWasRecorded() {
    BatchStore store = store();
    String split = "stream/shardId-000000000003";
    assertTrue(store.putAttemptInOrder(pipeline, split, new Attempt("999", "1000", 5), 0));
    assertTrue(store.putAttemptInOrder(pipeline, split, new Attempt("1001", "1010", 6), 0));
    assertTrue(
        store.putAttemptInOrder(pipeline, split, new Attempt("1001", "1012", 7), 1_900_000_000L),
        "a retry of the same batch");
    assertTrue(store.putAttemptInOrder(pipeline, split, new Attempt("1005", "1012", 8), 0));
    assertFalse(
        store.putAttemptInOrder(pipeline, split, new Attempt("999", "1000", 9), 0),
        "999 < 1005 by number, though not by text");
    assertFalse(store.putAttemptInOrder(pipeline, split, new Attempt("1004", "1004", 10), 0));
    assertEquals(
        List.of(new Attempt("1005", "1012", 8), new Attempt("1001", "1012", 7)),
        store.latestAttempts(pipeline, split, 2),
        "a refused attempt is not written");
    assertEquals(
        List.of(new Attempt("999", "1000", 5)), store.attempts(pipeline, split, "999", "999"));

    store.putAttempt(pipeline, split, new Attempt("1002", "1003", 11), 0);
    assertEquals(
        List.of(new Attempt("1002", "1003", 11)), store.attempts(pipeline, split, "1002", "1003"));
    assertTrue(
        store.putAttemptInOrder(
            pipeline, "stream/shardId-000000000004", new Attempt("1", "2", 12), 0));
    assertTrue(store.putAttemptInOrder(pipeline + "-other", split, new Attempt("1", "2", 13), 0));
    assertEquals(List.of(), store.readSplits(pipeline), "the order is apart from the splits");
  }

  @Test
  void receiptsAreFoundByMessageId() {
    BatchStore store = store();
    assertEquals(Map.of(), store.readReceipts(pipeline, "queue", List.of("m1")));
    store.writeReceipts(pipeline, "queue", Map.of("m1", bytes("one"), "m2", bytes("")), 0);
    Map<String, byte[]> read = store.readReceipts(pipeline, "queue", List.of("m1", "m2", "m3"));
    assertEquals(Set.of("m1", "m2"), read.keySet());
    assertArrayEquals(bytes("one"), read.get("m1"));
    assertEquals(Map.of(), store.readReceipts(pipeline, "other-queue", List.of("m1")));
  }

  /**
   * A message fanned out over many keys has a receipt past what one DynamoDB item holds (400 KB):
   * it reads back whole, beside small ones, and written again it replaces the earlier one.
   */
  @Test
  void aReceiptPastOneItemReadsBackWhole() {
    BatchStore store = store();
    byte[] large = new byte[900_000];
    new java.util.Random(7).nextBytes(large);
    store.writeReceipts(pipeline, "queue", Map.of("big", large, "small", bytes("s")), 0);
    Map<String, byte[]> read = store.readReceipts(pipeline, "queue", List.of("big", "small"));
    assertArrayEquals(large, read.get("big"));
    assertArrayEquals(bytes("s"), read.get("small"));
    store.writeReceipts(pipeline, "queue", Map.of("big", bytes("again")), 0);
    assertArrayEquals(
        bytes("again"), store.readReceipts(pipeline, "queue", List.of("big")).get("big"));
  }

  @Test
  void keysAndReceiptsOfOnePipelineOperatorOrSplitAreNotAnothers() {
    BatchStore store = store();
    String other = pipeline + "x";
    store.writeKeys(pipeline, "op", List.of(new KeyWrite("k", 0, bytes("p op"), null, 0)));
    store.writeKeys(pipeline, "op2", List.of(new KeyWrite("k", 0, bytes("p op2"), null, 0)));
    store.writeKeys(other, "op", List.of(new KeyWrite("k", 0, bytes("other op"), null, 0)));
    assertEquals(
        Set.of("k"),
        store.writeKeys(pipeline, "op", List.of(new KeyWrite("k", 0, bytes("again"), null, 0))),
        "each scope's key has its own version");
    assertArrayEquals(bytes("p op"), store.readKeys(pipeline, "op", List.of("k")).get("k").state());
    assertArrayEquals(
        bytes("p op2"), store.readKeys(pipeline, "op2", List.of("k")).get("k").state());
    assertArrayEquals(
        bytes("other op"), store.readKeys(other, "op", List.of("k")).get("k").state());
    assertEquals(Map.of(), store.readKeys(other, "op2", List.of("k")));

    store.writeReceipts(pipeline, "queue", Map.of("m", bytes("p")), 0);
    store.writeReceipts(other, "queue", Map.of("m", bytes("other")), 0);
    assertArrayEquals(bytes("p"), store.readReceipts(pipeline, "queue", List.of("m")).get("m"));
    assertArrayEquals(bytes("other"), store.readReceipts(other, "queue", List.of("m")).get("m"));
    assertEquals(Map.of(), store.readReceipts(other, "queue2", List.of("m")));
  }

  private static List<String> splitNames(List<SplitState> splits) {
    return splits.stream().map(SplitState::split).sorted().toList();
  }

  @Test
  void deferredMessagesComeInOrderPerSplitAndGoOnceDeleted() {
    BatchStore store = store();
    assertEquals(List.of(), store.deferred(pipeline, "q", 10));
    List<DeferredMessage> written = new ArrayList<>();
    // 30: more than one BatchWriteItem takes; later batches' entries sort after earlier ones'.
    for (int i = 0; i < 30; i++) {
      written.add(DeferredMessage.of(1_000 + i / 10, i % 10, "m-" + (29 - i)));
    }
    List<DeferredMessage> backwards = new ArrayList<>(written);
    java.util.Collections.reverse(backwards);
    store.putDeferred(pipeline, "q", backwards);
    store.putDeferred(pipeline, "other", List.of(DeferredMessage.of(5, 0, "x")));

    assertEquals(written, store.deferred(pipeline, "q", 100));
    assertEquals(written.subList(0, 7), store.deferred(pipeline, "q", 7));
    assertEquals("x", store.deferred(pipeline, "other", 10).get(0).message());

    assertEquals(written.get(29), store.lastDeferred(pipeline, "q"));
    assertNull(store.lastDeferred(pipeline, "none"));
    DeferredMessage replaced = new DeferredMessage(written.get(0).order(), "m-again");
    store.putDeferred(pipeline, "q", List.of(replaced));
    assertEquals(replaced, store.deferred(pipeline, "q", 1).get(0), "replaced by its order");

    List<String> orders = new ArrayList<>();
    written.subList(0, 26).forEach(m -> orders.add(m.order()));
    orders.add("absent");
    store.deleteDeferred(pipeline, "q", orders);
    assertEquals(written.subList(26, 30), store.deferred(pipeline, "q", 100));
    assertEquals(1, store.deferred(pipeline, "other", 10).size());
  }

  @Test
  void timersComeInOrderOfTheirEarliestTime() {
    BatchStore store = store();
    List<TimerItem> items =
        List.of(
            timer(-5_000, 10, "s#1"),
            timer(2_000, 3_000, "s#2"),
            timer(1_000, 9_000, "s#3"),
            timer(1_000, 1_000, "s#4"),
            timer(7_000, 7_000, "s#5"));
    store.putTimers(pipeline, items);

    assertEquals(List.of(), ids(store.timersDueBy(pipeline, -5_001, 10)));
    assertEquals(
        List.of(items.get(0).id(), items.get(2).id(), items.get(3).id()),
        ids(store.timersDueBy(pipeline, 1_999, 10)));
    assertEquals(
        List.of(items.get(0).id(), items.get(2).id()), ids(store.timersDueBy(pipeline, 9_999, 2)));
    TimerItem read = store.timersDueBy(pipeline, 1_000, 10).get(1);
    assertEquals(1_000, read.minTime());
    assertEquals(9_000, read.maxTime());
    assertArrayEquals(items.get(2).timers(), read.timers());

    store.deleteTimers(pipeline, List.of(items.get(0).id(), items.get(2).id(), "no-such-item"));
    assertEquals(
        List.of(items.get(3).id(), items.get(1).id(), items.get(4).id()),
        ids(store.timersDueBy(pipeline, Long.MAX_VALUE, 10)));
    assertEquals(List.of(), store.timersDueBy(pipeline + "-other", Long.MAX_VALUE, 10));
  }

  private static TimerItem timer(long min, long max, String suffix) {
    return new TimerItem(TimerItem.timePrefix(min) + "#" + suffix, min, max, bytes(suffix));
  }

  private static List<String> ids(List<TimerItem> items) {
    return items.stream().map(TimerItem::id).toList();
  }

  /**
   * A key longer than DynamoDB's partition key can hold is refused as an invalid request on every
   * store: the in-memory one took it, so a pipeline keyed by long texts passed locally and failed
   * on AWS.
   */
  @Test
  void aKeyLongerThanDynamoDbsPartitionKeyIsRefused() {
    BatchStore store = store();
    String key = "k".repeat(2100);
    StateStoreException e =
        assertThrows(
            StateStoreException.class,
            () ->
                store.writeKeys(
                    pipeline, "op", List.of(new KeyWrite(key, 0, bytes("s"), null, 0))));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, e.reason());
  }

  /**
   * A string key is its item's partition key as it is, and DynamoDB cannot carry a string that is
   * not valid UTF-16: a key holding an unpaired surrogate (an id cut in the middle of an emoji)
   * fails the whole BatchGetItem or BatchExecuteStatement with a 400 SerializationException, for
   * good, taking every other key of the request with it. The in-memory store read and wrote it, so
   * a batch pipeline keyed by such ids passed locally and failed every batch on AWS.
   */
  @Test
  void aKeyWithAnUnpairedSurrogateIsRefused() {
    BatchStore store = store();
    String key = "user-\uD83D";
    StateStoreException write =
        assertThrows(
            StateStoreException.class,
            () ->
                store.writeKeys(
                    pipeline, "op", List.of(new KeyWrite(key, 0, bytes("s"), null, 0))));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, write.reason(), write.getMessage());
    StateStoreException read =
        assertThrows(StateStoreException.class, () -> store.readKeys(pipeline, "op", List.of(key)));
    assertEquals(StateKitException.Reason.INVALID_REQUEST, read.reason(), read.getMessage());
  }
}
