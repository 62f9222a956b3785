package dev.statekit.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.TypeName;
import dev.statekit.runtime.internal.data.RuntimeData;
import org.junit.jupiter.api.Test;

class AppliedMarksTest {
  private static final String SENDER = Address.of(TypeName.of("t", "s"), "1") + "#5eed";

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
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance());
    marks.recordQueue("g", "18849496460467696128", 0);

    assertTrue(marks.queueSeen("g", "18849496460467696128"));
    assertTrue(marks.queueSeen("g", "100"));
    assertFalse(marks.queueSeen("g", "18849496460467696129"));
    assertFalse(marks.queueSeen("other", "1"));
  }

  @Test
  void aBundleIsRememberedUpToTheMessagesApplied() {
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance());
    marks.recordBundle(SENDER, 7, 0, 2, 0);

    assertTrue(marks.bundleSeen(SENDER, 7, 0, 2));
    assertFalse(marks.bundleSeen(SENDER, 7, 0, 3));
    assertTrue(marks.bundleSeen(SENDER, 6, 4, 9), "an earlier commit's bundle");
    assertFalse(marks.bundleSeen(SENDER, 7, 1, 0), "a later part of the same commit");
  }

  @Test
  void marksSurviveWritingAndAreForgottenAfterTheirRetention() {
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance());
    marks.recordQueue("old", "5", 100);
    marks.recordQueue("new", "5", 10_000);
    marks.recordBundle(SENDER, 3, 0, 0, 10_000);
    for (int i = 0; i < 5; i++) {
      marks.recordId("early-" + i, 9_000);
    }
    marks.recordId("late", 10_000);
    RuntimeData.Builder data = RuntimeData.newBuilder();

    marks.writeTo(data, 10_000, 1_000, 500, 3);
    AppliedMarks read = AppliedMarks.of(data.build());

    assertFalse(read.queueSeen("old", "5"), "not seen within the retention");
    assertTrue(read.queueSeen("new", "5"));
    assertTrue(read.bundleSeen(SENDER, 3, 0, 0));
    assertTrue(read.idSeen("late"));
    assertFalse(read.idSeen("early-0"), "older than the key retention");
    assertEquals(1, data.getRecentIdsCount(), "keys of one commit share one time");
  }

  @Test
  void onlyTheNewestIdempotencyKeysAreKept() {
    AppliedMarks marks = AppliedMarks.of(RuntimeData.getDefaultInstance());
    for (int i = 0; i < 10; i++) {
      marks.recordId("k" + i, 100 + i);
    }
    RuntimeData.Builder data = RuntimeData.newBuilder();

    marks.writeTo(data, 110, 1_000, 1_000, 4);
    AppliedMarks read = AppliedMarks.of(data.build());

    assertFalse(read.idSeen("k5"));
    assertTrue(read.idSeen("k6"));
    assertTrue(read.idSeen("k9"));
  }
}
