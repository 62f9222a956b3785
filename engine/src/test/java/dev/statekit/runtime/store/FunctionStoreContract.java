package dev.statekit.runtime.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
            new OutboxKey(3, 1_000, "o-" + run),
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
            null,
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
            null,
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

    for (LoadResult loaded :
        List.of(
            store().load(addresses, List.of(present, missing)),
            store().loadLatest(addresses, List.of(present, missing)))) {
      assertEquals(130, loaded.states().size());
      assertEquals(1, loaded.states().get(addresses.get(128)).version());
      assertEquals(0, loaded.states().get(addresses.get(129)).version());
      assertEquals(java.util.Set.of(present), loaded.existingTimers());
    }
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
  void timersToWakeAreThoseDueInTheWindowWithoutAWakeUp() {
    Address owner = address("wake");
    int shard = 5;
    TimerKey before = new TimerKey(shard, 10_000, "wa-" + run);
    TimerKey inside = new TimerKey(shard, 20_000, "wb-" + run);
    TimerKey woken = new TimerKey(shard, 25_000, "wc-" + run);
    TimerKey edge = new TimerKey(shard, 30_000, "wd-" + run);
    TimerKey after = new TimerKey(shard, 30_001, "we-" + run);
    store()
        .commit(
            new Commit(
                state(owner, 1, "x"),
                0,
                List.of(
                    schedule(before, "a"),
                    schedule(inside, "b"),
                    new TimerChange.Schedule(timer(woken, "c").wokenAt(1)),
                    schedule(edge, "d"),
                    schedule(after, "e"))));

    assertEquals(
        List.of(inside, edge),
        mine(store().timersToWake(shard, 10_000, 30_000, 100)).stream().map(Timer::key).toList(),
        "due after 'after' and by 'dueBy', none woken");
    assertEquals(1, mine(store().timersToWake(shard, 10_000, 30_000, 1)).size(), "the limit");
    store().markWokenUp(inside, 12_345);
    assertEquals(12_345, store().timer(inside).orElseThrow().wakeUpAtMillis());
    assertEquals(
        List.of(edge),
        mine(store().timersToWake(shard, 10_000, 30_000, 100)).stream().map(Timer::key).toList());
    assertEquals(1, store().timer(woken).orElseThrow().wakeUpAtMillis(), "kept as written");
    store().markSent(edge, 777);
    Timer read = store().timer(edge).orElseThrow();
    assertEquals(777, read.sentAtMillis());
    assertEquals("d", read.body());

    store().commit(new Commit(state(owner, 2, "y"), 1, List.of(new TimerChange.Consume(edge))));
    assertTrue(store().timer(edge).isEmpty(), "gone once consumed");
    store().markWokenUp(edge, 1);
    assertTrue(store().timer(edge).isEmpty(), "marking a gone timer brings nothing back");
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
    TimerKey kept = new TimerKey(4, 9, "keep-" + run);
    AddressState ownerState =
        new AddressState(
            owner,
            1,
            Map.of(),
            Map.of("a", first, "b", second, "c", kept),
            new byte[0],
            0,
            null,
            0,
            4_000_000_000L);
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
    assertEquals(0, after.expiresAtSeconds(), "kept while a token is pending");
    store()
        .commit(
            new Commit(
                state(target, 2, "t2"),
                1,
                List.of(new TimerChange.ReleaseToken(owner, "c", kept))));
    assertEquals(
        4_000_000_000L,
        store().reload(owner).expiresAtSeconds(),
        "the last token freed, the owner expires as it would without tokens");
    assertThrows(
        CommitConflictException.class,
        () ->
            store()
                .commit(
                    new Commit(
                        state(target, 3, "again"),
                        2,
                        List.of(new TimerChange.ReleaseToken(owner, "a", first)))),
        "a token that no longer names the timer fails the commit");
  }

  @Test
  void outboxRegistrationsAreFoundWhenDueUntilSettled() {
    Address a = address("reg-a");
    Address b = address("reg-b");
    Address c = address("reg-c");
    OutboxKey key = new OutboxKey(5, 10_000, "batch-" + run);

    store().registerOutboxes(key, List.of(a, b));
    store().registerOutboxes(key, List.of(c));

    assertEquals(Optional.of(OutboxTries.NONE), store().outboxPending(key, a));
    assertTrue(store().outboxPending(key, address("reg-other")).isEmpty());
    assertTrue(registrations(5, 9_999, 1).isEmpty(), "not due yet");
    OutboxEntry due = registrations(5, 10_000, 1).get(0);
    assertEquals(java.util.Set.of(a, b, c), due.addresses());
    assertEquals(2, due.registrations());
    assertEquals(0, due.attempts(a));

    store().outboxesTried(key, Map.of(a, Set.of(), b, Set.of("e0", "d1")), 11_000);
    store().settleOutboxes(key, List.of(a));
    assertTrue(store().outboxPending(key, a).isEmpty());
    assertEquals(
        Optional.of(new OutboxTries(1, Set.of("e0", "d1"))), store().outboxPending(key, b));
    store().outboxesTried(key, Map.of(b, Set.of("e0", "e2")), 12_000);
    assertTrue(registrations(5, 20_000, 12_000).isEmpty(), "tried since");
    OutboxEntry tried = registrations(5, 20_000, 12_001).get(0);
    assertEquals(2, tried.attempts(b), "each failed try counts for the address tried");
    assertEquals(0, tried.attempts(c), "the tries of others do not count for it");
    assertEquals(java.util.Map.of(b, 2), tried.attempts(), "a settled address's count goes");
    assertEquals(
        new OutboxTries(2, Set.of("e0", "d1", "e2")),
        tried.tries(b),
        "what went out adds up over the tries");
    assertEquals(OutboxTries.NONE, tried.tries(a), "a settled address's items go");
    assertEquals(Optional.of(OutboxTries.NONE), store().outboxPending(key, c));

    assertFalse(store().removeOutboxes(key, 1), "a registration was added since");
    assertTrue(store().removeOutboxes(key, 2));
    assertTrue(store().outboxPending(key, b).isEmpty());
    assertTrue(registrations(5, 20_000, 99_000).isEmpty());
    store().settleOutboxes(key, List.of(b));
    assertTrue(registrations(5, 20_000, 99_000).isEmpty(), "settling a removed one adds nothing");
    assertTrue(store().removeOutboxes(key, -1), "removing one that is gone");
  }

  @Test
  void anAddressWithColonsAndSlashesIsRegisteredAsItIs() {
    Address odd = Address.of(TypeName.of("a/b", "c"), "x/y:z " + run);
    OutboxKey key = new OutboxKey(1, 5, "odd-" + run);

    store().registerOutboxes(key, List.of(odd));

    assertEquals(
        java.util.Set.of(odd),
        store().dueOutboxes(1, 5, 1, 100).stream()
            .filter(e -> e.key().equals(key))
            .findFirst()
            .orElseThrow()
            .addresses());
  }

  @Test
  void spilledMarksKeepTheFurthestPosition() {
    Address address = address("marks");

    store()
        .spillMarks(
            address,
            List.of(
                new SpilledMark("g:one", "0005", 2_000_000_000L, true),
                new SpilledMark("k:a", "0", 9, false)));
    store().spillMarks(address, List.of(new SpilledMark("g:one", "0003", 2_000_000_000L, true)));
    store().spillMarks(address, List.of(new SpilledMark("s:x", "0001", 2_000_000_000L, true)));

    Map<String, SpilledMark> read =
        store().spilledMarks(address, List.of("g:one", "k:a", "s:x", "s:none"));
    assertEquals("0005", read.get("g:one").position(), "an older position does not go back");
    assertEquals(3, read.size());
    assertTrue(store().spilledMarks(address("other-marks"), List.of("g:one")).isEmpty());
    store().spillMarks(address, List.of(new SpilledMark("g:one", "0007", 2_000_000_001L, true)));
    assertEquals("0007", store().spilledMarks(address, List.of("g:one")).get("g:one").position());
  }

  @Test
  void aDroppedTimerFreesItsOwnersToken() {
    Address owner = address("dropper");
    TimerKey timer = new TimerKey(6, 1_000, "drop-" + run);
    TimerKey other = new TimerKey(6, 1_000, "other-" + run);
    store()
        .commit(
            new Commit(
                new AddressState(
                    owner, 1, Map.of(), Map.of("t", timer, "u", other), new byte[0], 0, null, 0),
                0,
                List.of(schedule(timer, "x"), schedule(other, "y"))));

    store().dropTimer(timer, owner, "t");
    store().dropTimer(timer, owner, "t");
    store().dropTimer(other, owner, "not-its-token");

    assertFalse(store().timerExists(timer));
    assertFalse(store().timerExists(other));
    assertEquals(java.util.Set.of("u"), store().reload(owner).pendingTokens().keySet());
    assertEquals(2, store().reload(owner).version(), "freeing a token is a new version");
  }

  /** A timer dropped with its dead letter frees its owner's last token: the owner expires again. */
  @Test
  void aDroppedTimerThatFreesTheLastTokenGivesTheOwnerItsTtlBack() {
    Address owner = address("last-dropper");
    TimerKey timer = new TimerKey(6, 1_000, "last-drop-" + run);
    store()
        .commit(
            new Commit(
                new AddressState(
                    owner,
                    1,
                    Map.of(),
                    Map.of("t", timer),
                    new byte[0],
                    0,
                    null,
                    0,
                    4_000_000_000L),
                0,
                List.of(schedule(timer, "x"))));
    assertEquals(0, store().reload(owner).expiresAtSeconds(), "kept while its token is pending");

    store().dropTimer(timer, owner, "t");

    assertEquals(4_000_000_000L, store().reload(owner).expiresAtSeconds());
  }

  @Test
  void aCommitThatChangesOneTimerTwiceIsRefusedAsInvalid() {
    Address address = address("twice");
    TimerKey timer = new TimerKey(2, 1_000, "twice-" + run);
    store().commit(new Commit(state(address, 1, "a"), 0, List.of(schedule(timer, "x"))));

    StoreException refused =
        assertThrows(
            StoreException.class,
            () ->
                store()
                    .commit(
                        new Commit(
                            state(address, 2, "b"),
                            1,
                            List.of(
                                new TimerChange.Cancel(timer), new TimerChange.Consume(timer)))));

    assertEquals(StoreException.Reason.INVALID_REQUEST, refused.reason());
    assertTrue(refused.getMessage().contains("twice"), refused.getMessage());
    assertTrue(store().timerExists(timer), "nothing was written");
    assertEquals(1, store().reload(address).version());
  }

  private List<OutboxEntry> registrations(int shard, long dueBy, long triedBefore) {
    return store().dueOutboxes(shard, dueBy, triedBefore, 100).stream()
        .filter(e -> e.key().id().endsWith(run))
        .toList();
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
            null,
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
        null,
        0);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
