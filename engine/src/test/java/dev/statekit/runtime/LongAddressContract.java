package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An address whose key DynamoDB refuses (its id makes the state item's partition key longer than
 * DynamoDB's 2,048 bytes): nothing can ever be read or written for it. Such a message must be
 * refused or dead-lettered once, alone, with its error; it must neither fail the other addresses of
 * its batch nor be sent again forever by its timer.
 */
abstract class LongAddressContract extends RuntimeFixture {
  /** An id no DynamoDB key can hold: the state item's partition key passes 2,048 bytes. */
  static final String LONG_ID = "x".repeat(2_100);

  // A direct batch of two envelopes, one to a plain address, one to an address whose key is too
  // long. The plain one must be applied; the other refused ("rejected": retrying cannot help).
  @Test
  void aTooLongAddressInADirectBatchIsRefusedAloneAndTheRestApplied() {
    FunctionRuntime runtime = runtime();
    Address plain = address(TestFunctions.COUNTER, "beside-long");
    Address tooLong = Address.of(TestFunctions.COUNTER, LONG_ID);

    List<DirectResult> results =
        runtime.invoke(
            List.of(
                DirectInvocation.of(MessageBuilder.forAddress(plain).withValue(5L).build()),
                DirectInvocation.of(MessageBuilder.forAddress(tooLong).withValue(1L).build())));

    assertStatus(DirectResult.Status.APPLIED, results.get(0));
    assertStatus(DirectResult.Status.REJECTED, results.get(1));
  }

  // The same on the ingress queue: the two messages (two groups) arrive in one batch. The plain
  // one must be applied once; the other dead-lettered once, with its error.
  @Test
  void aTooLongAddressOnTheQueueDoesNotDeadLetterTheMessagesBatchedWithIt() {
    FunctionRuntime runtime = runtime();
    Address plain = address(TestFunctions.COUNTER, "queued-beside-long");
    Address tooLong = Address.of(TestFunctions.COUNTER, LONG_ID);
    enqueue(MessageBuilder.forAddress(plain).withValue(5L).build());
    enqueue(MessageBuilder.forAddress(tooLong).withValue(1L).build());

    for (int attempt = 0; attempt < 4; attempt++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      waitForVisibility();
    }

    List<Map.Entry<String, Map<String, String>>> letters = deadLetters().peekAll();
    assertEquals(
        1,
        letters.size(),
        "only the message to the address no key can hold is dead-lettered: " + targets(letters));
    var sum = store().reload(plain).values().get(TestFunctions.SUM.name());
    assertEquals(
        5L,
        sum == null ? 0L : dev.statekit.types.Types.longType().deserialize(sum.bytes()),
        "the plain message was applied");
  }

  // A function sends a delayed message to an address no key can hold. Its message could never be
  // applied: the sender's invocation is refused with the reason, and no timer is written (before,
  // the sender succeeded and the timer sent the message again every timerResendAfter for ever).
  @Test
  void aDelayedMessageToATooLongAddressIsRefusedToItsSenderAndNoTimerIsWritten() {
    FunctionRuntime runtime = runtime();
    Address owner = address(TestFunctions.REMINDER, "later-long");
    DirectResult result =
        runtime.invoke(
            DirectInvocation.of(
                MessageBuilder.forAddress(owner).withValue("later:1000:" + LONG_ID).build()));

    assertStatus(DirectResult.Status.REJECTED, result);
    assertTrue(result.errorMessage().orElse("").contains("use a shorter id"), result::toString);
    int sends = 0;
    for (int round = 0; round < 4; round++) {
      // The runtime's clock only: the queue needs no real time to pass for the sweep's sends.
      clock.advance(Duration.ofMinutes(6));
      sends += runtime.sweepTimers().sent();
      LambdaLikeWorker.pollOnce(queue(), runtime);
    }
    assertEquals(0, sends, "no timer sends it");
    assertEquals(List.of(), targets(deadLetters().peekAll()), "nothing to dead-letter");
  }

  private static List<String> targets(List<Map.Entry<String, Map<String, String>>> letters) {
    return letters.stream()
        .map(
            l -> {
              String target = l.getValue().getOrDefault("statekit.target", "?");
              return (target.length() > 40 ? target.substring(0, 40) + "..." : target)
                  + " ("
                  + l.getValue().get("statekit.error")
                  + ")";
            })
        .toList();
  }
}
