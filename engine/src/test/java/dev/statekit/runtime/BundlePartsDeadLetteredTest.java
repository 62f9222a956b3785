package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A message between functions may hold several (a bundle), and each part is applied or
 * dead-lettered on its own. A part dead-lettered in a commit has its letter written in that commit,
 * whatever becomes of the other parts: its mark is written there too, and when the message comes
 * again for a part left for later, this part is a repeat. Before, a dead letter was written only
 * once every part was done, so a part dead-lettered beside one left for a later commit (the
 * commit's room split the bundle) or beside one that failed and came again was never dead-lettered.
 */
class BundlePartsDeadLetteredTest extends RuntimeFixture {
  static final TypeName ROOM = TypeName.of("test", "room");
  static final TypeName FANOUT = TypeName.of("test", "fanout");
  static final ValueSpec<Long> COUNT = ValueSpec.named("count").withLongType();
  static final ValueSpec<String> BIG = ValueSpec.named("big").withUtf8StringType();

  /** "e:n": counts and sends an egress record of n characters; "bad:...": an unrouted egress. */
  static void room(Context context, Message message) {
    String[] parts = message.asUtf8String().split(":", 3);
    if (parts[0].equals("bad")) {
      context.send(
          EgressMessageBuilder.forEgress(TypeName.of("test", "nowhere")).withValue("x").build());
      return;
    }
    if (parts[0].equals("once") && FAILED_ONCE.compareAndSet(false, true)) {
      throw new IllegalStateException("fails once");
    }
    if (parts[0].equals("store")) {
      context.storage().set(BIG, "s".repeat(Integer.parseInt(parts[1])));
      return;
    }
    context.storage().set(COUNT, context.storage().get(COUNT).orElse(0L) + 1);
    context.send(
        EgressMessageBuilder.forEgress(TestFunctions.COUNTED)
            .withValue("x".repeat(Integer.parseInt(parts[1])))
            .build());
  }

  /**
   * "id|count|pad[|last]": sends count refused messages of about pad characters to room/id, then
   * {@code last} if given: one bundle.
   */
  static void fanout(Context context, Message message) {
    String[] parts = message.asUtf8String().split("\\|");
    Address target = Address.of(ROOM, parts[0]);
    for (int i = 0; i < Integer.parseInt(parts[1]); i++) {
      context.send(
          MessageBuilder.forAddress(target)
              .withValue("bad:" + i + ":" + "p".repeat(Integer.parseInt(parts[2])))
              .build());
    }
    if (parts.length > 3) {
      context.send(MessageBuilder.forAddress(target).withValue(parts[3]).build());
    }
  }

  /** Whether "once:..." failed already: it fails its first attempt only. */
  static final java.util.concurrent.atomic.AtomicBoolean FAILED_ONCE =
      new java.util.concurrent.atomic.AtomicBoolean();

  static StatefulFunctions functions() {
    return StatefulFunctions.builder()
        .withFunction(ROOM, BundlePartsDeadLetteredTest::room, COUNT, BIG)
        .withFunction(FANOUT, BundlePartsDeadLetteredTest::fanout)
        .build();
  }

  /**
   * The address stores 250 KB, and one bundle of two refused messages of 80 KB each arrives: 250 +
   * 80 KB fit one commit, 250 + 160 do not, so the bundle is split across two commits.
   */
  @Test
  void eachRefusedPartOfABundleBesideALargeStateIsDeadLettered() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "big");
    enqueue(MessageBuilder.forAddress(room).withValue("store:250000:x").build());
    drain(runtime);
    fanOut(runtime, "f", room.id() + "|2|80000");

    drain(runtime);

    assertDeadLetters(2);
  }

  @Test
  void eachRefusedPartOfABundleSplitAcrossCommitsIsDeadLetteredOnce() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "split");
    // A valid message first in the group: 250 KB of egress.
    enqueue(MessageBuilder.forAddress(room).withValue("e:250000:valid").build());
    // Then one bundle of two refused messages of 80 KB each: 250 + 80 fits a commit, 250 + 160 not.
    fanOut(runtime, "f", room.id() + "|2|80000");

    drain(runtime);

    assertEquals(1, value(room, COUNT), "the valid message applied");
    assertEquals(1, counted.records().size(), "its egress record");
    assertDeadLetters(2);
  }

  /** A bundle of a refused message and one that fails its first attempt, then succeeds. */
  @Test
  void aRefusedPartBesideOneThatFailsAndComesAgainIsDeadLetteredOnce() {
    FAILED_ONCE.set(false);
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5), functions());
    Address room = address(ROOM, "beside-failed");
    fanOut(runtime, "g", room.id() + "|1|10|once:10:ok");

    drain(runtime); // the bundle: its second part fails and goes back
    waitForVisibility();
    drain(runtime); // the bundle again: its first part a repeat, its second applied

    assertEquals(1, value(room, COUNT), "the failing part applied when it came again");
    assertDeadLetters(1);
  }

  /** Has {@code fanout/<prefix>-<run>} send the bundle {@code order} describes. */
  private void fanOut(FunctionRuntime runtime, String prefix, String order) {
    List<DirectResult> sent =
        runtime.invoke(
            List.of(
                DirectInvocation.of(
                    MessageBuilder.forAddress(Address.of(FANOUT, prefix + "-" + run))
                        .withValue(order)
                        .build())));
    assertEquals(DirectResult.Status.APPLIED, sent.get(0).status(), sent::toString);
  }

  private void assertDeadLetters(int expected) {
    List<String> letters = deadLetterReport();
    assertEquals(
        expected,
        letters.size(),
        () ->
            "one dead letter per refused message: "
                + letters.stream().map(l -> l.substring(0, Math.min(160, l.length()))).toList());
  }
}
