package dev.statekit.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.store.SpilledMark;
import dev.statekit.types.TypeName;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AppliedMarksTest {
  private static final String SENDER =
      InboundInvocation.senderHash(Address.of(TypeName.of("t", "s"), "1"), 0x5eed);

  @Test
  void queueSequenceNumbersCompareAsNumbersOfUpTo128Bits() {
    assertTrue(AppliedMarks.compareSequences("18849496460467696129", "18849496460467696128") > 0);
    assertTrue(AppliedMarks.compareSequences("9", "10") < 0);
    assertTrue(AppliedMarks.compareSequences("0010", "10") == 0);
    assertTrue(
        AppliedMarks.compareSequences(
                "340282366920938463463374607431768211455", "99999999999999999999")
            > 0);
  }

  @Test
  void aGroupRemembersItsLastAppliedMessage() {
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance(), Map.of());
    marks.recordQueue("g", "18849496460467696128", 0);

    assertTrue(marks.queueSeen("g", "18849496460467696128"));
    assertTrue(marks.queueSeen("g", "100"));
    assertFalse(marks.queueSeen("g", "18849496460467696129"));
    assertFalse(marks.queueSeen("other", "1"));
  }

  @Test
  void aBundleIsRememberedUpToTheMessagesApplied() {
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance(), Map.of());
    marks.recordBundle(SENDER, 7, 0, 2, 0);

    assertTrue(marks.bundleSeen(SENDER, 7, 0, 2));
    assertFalse(marks.bundleSeen(SENDER, 7, 0, 3));
    assertTrue(marks.bundleSeen(SENDER, 6, 4, 9), "an earlier commit's bundle");
    assertFalse(marks.bundleSeen(SENDER, 7, 1, 0), "a later part of the same commit");
  }

  @Test
  void marksSurviveWritingAndAreForgottenAfterTheirRetention() {
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance(), Map.of());
    marks.recordQueue("old", "5", 100);
    marks.recordQueue("new", "5", 10_000);
    marks.recordBundle(SENDER, 3, 0, 0, 10_000);
    for (int i = 0; i < 5; i++) {
      marks.recordId("early-" + i, 9_000);
    }
    marks.recordId("late", 10_000);
    RuntimeData.Builder data = RuntimeData.newBuilder();

    marks.writeTo(data, 10_000, new AppliedMarks.Limits(1_000, 100, 500, 100));
    AppliedMarks read = AppliedMarks.of(data.build(), Map.of());

    assertFalse(read.queueSeen("old", "5"), "not seen within the retention");
    assertTrue(read.queueSeen("new", "5"));
    assertTrue(read.bundleSeen(SENDER, 3, 0, 0));
    assertTrue(read.idSeen("late"));
    assertFalse(read.idSeen("early-0"), "older than the key retention");
    assertEquals(1, data.getRecentIdsCount(), "keys of one commit share one time");
  }

  @Test
  void keysBeyondTheCapacityLeaveTheItemAndAreStillSeenFromWhereTheyWent() {
    AppliedMarks.Limits limits = new AppliedMarks.Limits(1_000, 100, 1_000, 4);
    RuntimeData.Builder first = RuntimeData.newBuilder();
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance(), Map.of());
    for (int i = 0; i < 10; i++) {
      marks.recordId("k" + i, 100 + i);
    }
    assertTrue(marks.writeTo(first, 110, limits).isEmpty(), "keys of this batch never leave");

    RuntimeData.Builder second = RuntimeData.newBuilder();
    List<SpilledMark> leaving =
        AppliedMarks.of(first.build(), Map.of()).writeTo(second, 111, limits);

    assertEquals(7, leaving.size(), "down to three quarters of the capacity, oldest first");
    AppliedMarks kept = AppliedMarks.of(second.build(), Map.of());
    assertTrue(kept.idSeen("k9"));
    assertFalse(kept.idSeen("k0"), "not in the item any more");
    Set<String> lookups = new HashSet<>();
    kept.idLookup("k0", 111, lookups);
    kept.idLookup("k9", 111, lookups);
    assertEquals(1, lookups.size(), "only a key the item lacks is looked up");
    Map<String, SpilledMark> away = new HashMap<>();
    leaving.forEach(mark -> away.put(mark.id(), mark));
    assertTrue(AppliedMarks.of(second.build(), away).idSeen("k0"));
    assertEquals(1_100, leaving.get(0).expiresAtSeconds(), "kept for the key retention");
    Set<String> late = new HashSet<>();
    kept.idLookup("k0", 1_200, late);
    assertTrue(late.isEmpty(), "nothing to look up once what left has expired");
  }

  @Test
  void sendersAndGroupsBeyondTheCapacityLeaveWithTheirPositions() {
    AppliedMarks.Limits limits = new AppliedMarks.Limits(10_000, 4, 1_000, 10);
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance(), Map.of());
    for (int i = 0; i < 6; i++) {
      marks.recordBundle("s" + i, 10 + i, 0, 1, 100 + i);
      marks.recordQueue("g" + i, Integer.toString(1000 + i), 100 + i);
    }
    RuntimeData.Builder first = RuntimeData.newBuilder();
    marks.writeTo(first, 200, limits);
    RuntimeData.Builder second = RuntimeData.newBuilder();
    List<SpilledMark> leaving =
        AppliedMarks.of(first.build(), Map.of()).writeTo(second, 300, limits);
    Map<String, SpilledMark> away = new HashMap<>();
    leaving.forEach(mark -> away.put(mark.id(), mark));
    AppliedMarks read = AppliedMarks.of(second.build(), away);

    assertEquals(3, second.getSendersCount());
    assertEquals(3, second.getGroupsCount());
    assertTrue(read.bundleSeen("s0", 10, 0, 1));
    assertFalse(
        read.bundleSeen("s0", 10, 0, 2), "the third message of that bundle was not applied");
    assertFalse(read.bundleSeen("s0", 11, 0, 0));
    assertTrue(read.bundleSeen("s1", 5, 3, 9), "an earlier bundle of a sender that left");
    assertTrue(read.queueSeen("g0", "1000"));
    assertFalse(read.queueSeen("g0", "1001"));
    assertTrue(read.queueSeen("g5", "999"), "one that stayed");
    assertTrue(second.getSendersSpilledUntil() > 300 && second.getGroupsSpilledUntil() > 300);
  }
}
