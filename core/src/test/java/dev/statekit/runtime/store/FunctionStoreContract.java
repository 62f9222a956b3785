package dev.statekit.runtime.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link FunctionStore} must do; run against each adapter. */
abstract class FunctionStoreContract {
  private static final TypeName COUNTER = TypeName.of("test", "counter");

  /** A store to test; each test uses fresh addresses, so the store may be shared. */
  abstract FunctionStore store();

  private final String run = UUID.randomUUID().toString().substring(0, 8);

  @Test
  void anAddressNeverWrittenIsAbsent() {
    Address address = address("never");

    AddressState state = store().load(List.of(address), List.of()).states().get(address);

    assertEquals(AddressState.absent(address), state);
    assertEquals(AddressState.absent(address), store().reload(address));
  }

  @Test
  void aCommittedStateReadsBackWhole() {
    Address address = address("whole");
    TimerKey timer = new TimerKey(2, 1_000, "t-" + run);
    AddressState state =
        new AddressState(
            address,
            1,
            Map.of(
                "count", new StoredValue("io.statefun.types/long", new byte[] {9, 1, 2}, 0),
                "name", new StoredValue("io.statefun.types/string", utf8("ada"), 123_456_789)),
            Map.of("tok", timer),
            new byte[] {1, 2, 3, 4},
            1,
            false,
            1_900_000_000);

    store().commit(new Commit(state, 0, List.of()));

    assertEquals(state, store().load(List.of(address), List.of()).states().get(address));
    assertEquals(state, store().reload(address));
  }

  @Test
  void aCommitFromAnOutdatedVersionIsRefusedAndChangesNothing() {
    Address address = address("race");
    AddressState first = state(address, 1, "first");
    store().commit(new Commit(first, 0, List.of()));

    assertThrows(
        CommitConflictException.class,
        () -> store().commit(new Commit(state(address, 1, "lost"), 0, List.of())));
    store().commit(new Commit(state(address, 2, "second"), 1, List.of()));
    assertThrows(
        CommitConflictException.class,
        () -> store().commit(new Commit(state(address, 2, "stale"), 1, List.of())));

    assertArrayEquals(utf8("second"), store().reload(address).values().get("v").bytes());
  }

  @Test
  void aStatePastTheItemLimitIsRefusedBeforeAnythingIsWritten() {
    Address address = address("big");
    store().commit(new Commit(state(address, 1, "small"), 0, List.of()));
    byte[] huge = new byte[(int) store().maxStateBytes()];
    AddressState tooBig =
        new AddressState(
            address,
            2,
            Map.of("v", new StoredValue("test/blob", huge, 0)),
            Map.of(),
            new byte[0],
            0,
            false,
            0);

    StateTooLargeException refused =
        assertThrows(
            StateTooLargeException.class, () -> store().commit(new Commit(tooBig, 1, List.of())));

    assertTrue(refused.getMessage().contains(address.toString()), refused.getMessage());
    assertTrue(refused.sizeBytes() > refused.limitBytes());
    assertEquals(1, store().reload(address).version(), "the previous state is untouched");
  }

  @Test
  void aStateJustUnderTheLimitFits() {
    Address address = address("fits");
    byte[] large = new byte[(int) store().maxStateBytes() - 2_000];
    AddressState state =
        new AddressState(
            address,
            1,
            Map.of("v", new StoredValue("test/blob", large, 0)),
            Map.of(),
            new byte[0],
            0,
            false,
            0);

    store().commit(new Commit(state, 0, List.of()));

    assertEquals(large.length, store().reload(address).values().get("v").bytes().length);
  }

  @Test
  void loadsManyAddressesAndTimersTogether() {
    List<Address> addresses = new ArrayList<>();
    for (int i = 0; i < 130; i++) {
      Address address = address("many-" + i);
      addresses.add(address);
      if (i % 2 == 0) {
        store().commit(new Commit(state(address, 1, "n" + i), 0, List.of()));
      }
    }
    TimerKey present = new TimerKey(1, 5_000, "present-" + run);
    TimerKey missing = new TimerKey(1, 5_000, "missing-" + run);
    Address owner = address("timer-owner");
    store().commit(new Commit(state(owner, 1, "x"), 0, List.of(schedule(present, "b"))));

    LoadResult loaded = store().load(addresses, List.of(present, missing));

    assertEquals(130, loaded.states().size());
    assertEquals(1, loaded.states().get(addresses.get(128)).version());
    assertEquals(0, loaded.states().get(addresses.get(129)).version());
    assertEquals(java.util.Set.of(present), loaded.existingTimers());
  }

  @Test
  void timersAreReadDueFirstAndOnlyWhenDue() {
    int shard = 3;
    Address owner = address("sweeper");
    TimerKey early = new TimerKey(shard, 10_000, "early-" + run);
    TimerKey late = new TimerKey(shard, 20_000, "late-" + run);
    TimerKey future = new TimerKey(shard, 90_000, "future-" + run);
    store()
        .commit(
            new Commit(
                state(owner, 1, "x"),
                0,
                List.of(schedule(late, "L"), schedule(future, "F"), schedule(early, "E"))));

    List<Timer> due = mine(store().dueTimers(shard, 20_000, Long.MAX_VALUE, 100));

    assertEquals(List.of(early, late), due.stream().map(Timer::key).toList());
    assertEquals("E", due.get(0).body());
    assertEquals("group-" + run, due.get(0).groupId());
    store().markSent(early, 15_000);
    assertEquals(
        List.of(late),
        mine(store().dueTimers(shard, 20_000, 15_000, 100)).stream().map(Timer::key).toList(),
        "a timer sent since 'sentBefore' is left out");
    assertEquals(15_000, mine(store().dueTimers(shard, 20_000, 15_001, 100)).get(0).sentAtMillis());
  }

  @Test
  void cancellingAndConsumingRemoveTimersWithTheState() {
    Address owner = address("cancel");
    TimerKey cancelled = new TimerKey(0, 1_000, "c-" + run);
    TimerKey consumed = new TimerKey(0, 1_000, "d-" + run);
    store()
        .commit(
            new Commit(
                state(owner, 1, "x"),
                0,
                List.of(schedule(cancelled, "c"), schedule(consumed, "d"))));

    store()
        .commit(
            new Commit(
                state(owner, 2, "y"),
                1,
                List.of(new TimerChange.Cancel(cancelled), new TimerChange.Consume(consumed))));

    assertFalse(store().timerExists(cancelled));
    assertFalse(store().timerExists(consumed));
    store().commit(new Commit(state(owner, 3, "z"), 2, List.of(new TimerChange.Cancel(cancelled))));
    assertEquals(3, store().reload(owner).version(), "cancelling a missing timer is no conflict");
  }

  @Test
  void consumingAGoneTimerFailsTheWholeCommit() {
    Address address = address("gone");
    TimerKey gone = new TimerKey(0, 1_000, "gone-" + run);

    assertThrows(
        CommitConflictException.class,
        () ->
            store()
                .commit(
                    new Commit(state(address, 1, "x"), 0, List.of(new TimerChange.Consume(gone)))));
    TimerKey twice = new TimerKey(0, 1_000, "twice-" + run);
    store().commit(new Commit(state(address, 1, "x"), 0, List.of(schedule(twice, "b"))));
    assertThrows(
        CommitConflictException.class,
        () -> store().commit(new Commit(state(address, 2, "y"), 1, List.of(schedule(twice, "b")))));

    assertEquals(1, store().reload(address).version(), "nothing of a failed commit is written");
  }

  @Test
  void releasingAnotherAddressTokenBumpsItsVersion() {
    Address owner = address("owner");
    Address target = address("target");
    TimerKey first = new TimerKey(4, 1_000, "r1-" + run);
    TimerKey second = new TimerKey(4, 1_000, "r2-" + run);
    AddressState ownerState =
        new AddressState(
            owner,
            1,
            Map.of(),
            Map.of("a", first, "b", second, "c", new TimerKey(4, 9, "keep-" + run)),
            new byte[0],
            0,
            false,
            0);
    store().commit(new Commit(ownerState, 0, List.of(schedule(first, "1"), schedule(second, "2"))));

    store()
        .commit(
            new Commit(
                state(target, 1, "t"),
                0,
                List.of(
                    new TimerChange.Consume(first),
                    new TimerChange.ReleaseToken(owner, "a", first),
                    new TimerChange.Consume(second),
                    new TimerChange.ReleaseToken(owner, "b", second))));

    AddressState after = store().reload(owner);
    assertEquals(2, after.version());
    assertEquals(java.util.Set.of("c"), after.pendingTokens().keySet());
    assertThrows(
        CommitConflictException.class,
        () ->
            store()
                .commit(
                    new Commit(
                        state(target, 2, "again"),
                        1,
                        List.of(new TimerChange.ReleaseToken(owner, "a", first)))),
        "a token that no longer names the timer fails the commit");
  }

  @Test
  void aDeliveryReceiptCountsOnlyForTheOutboxItNames() {
    Address address = address("receipt");
    AddressState withOutbox =
        new AddressState(address, 1, Map.of(), Map.of(), new byte[] {7}, 1, false, 0);
    store().commit(new Commit(withOutbox, 0, List.of()));

    store().recordDelivery(address, 5);
    assertFalse(store().reload(address).outboxDelivered(), "a receipt for another outbox");
    store().recordDelivery(address, 1);

    assertTrue(store().reload(address).outboxDelivered());
    assertEquals(1, store().reload(address).version(), "a receipt is no new version");
    store().recordDelivery(address("nobody-" + run), 1);
  }

  @Test
  void sizesCountEverythingStored() {
    Address address = address("size");
    AddressState small = state(address, 1, "x");
    AddressState larger =
        new AddressState(
            address,
            1,
            Map.of("v", new StoredValue("test/blob", new byte[1000], 0)),
            Map.of(),
            new byte[500],
            0,
            false,
            0);

    assertTrue(store().sizeOf(small) > 0);
    assertTrue(store().sizeOf(larger) >= store().sizeOf(small) + 1_400);
  }

  private Address address(String id) {
    return Address.of(COUNTER, id + "-" + run);
  }

  private List<Timer> mine(List<Timer> timers) {
    return timers.stream().filter(t -> t.key().id().endsWith(run)).toList();
  }

  private Timer timer(TimerKey key, String body) {
    return new Timer(key, "group-" + run, body, 0);
  }

  private TimerChange schedule(TimerKey key, String body) {
    return new TimerChange.Schedule(timer(key, body));
  }

  private static AddressState state(Address address, long version, String value) {
    return new AddressState(
        address,
        version,
        Map.of("v", new StoredValue("io.statefun.types/string", utf8(value), 0)),
        Map.of(),
        new byte[0],
        0,
        false,
        0);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
