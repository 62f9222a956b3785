package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.BusMessage;
import dev.statekit.bus.QueueMessage;
import dev.statekit.function.Address;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.internal.FaultHook;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Queue batches: FIFO partial failures, dead letters, bad input, repeats, crashes. */
abstract class QueueBatchContract extends RuntimeFixture {

  @Test
  void appliesQueuedMessagesAndTheMessagesFunctionsSendEachOther() {
    FunctionRuntime runtime = runtime();
    Address total = Address.of(TestFunctions.TOTAL, "all");
    long before = value(total, TestFunctions.SUM);
    for (int i = 1; i <= 12; i++) {
      enqueue(
          MessageBuilder.forAddress(address(TestFunctions.COUNTER, "q" + (i % 3)))
              .withValue((long) i)
              .build());
    }

    drain(runtime);

    assertEquals(4, value(address(TestFunctions.COUNTER, "q0"), TestFunctions.COUNT));
    assertEquals(78, value(total, TestFunctions.SUM) - before);
    assertEquals(12, counted.records().size());
  }

  @Test
  void aFailingMessageComesBackWithTheLaterMessagesOfItsGroupOnly() {
    FunctionRuntime runtime = runtime();
    Address flaky = address(TestFunctions.FLAKY, "f");
    Address other = address(TestFunctions.COUNTER, "other");
    enqueue(string(flaky, "ok"));
    enqueue(string(flaky, "fail"));
    enqueue(string(flaky, "ok"));
    enqueue(MessageBuilder.forAddress(other).withValue(1L).build());

    QueueBatchResult first = pollAll(runtime);

    assertEquals(2, first.failedMessageIds().size(), "the failure and the message after it");
    assertEquals(2, first.applied());
    assertEquals(1, value(flaky, TestFunctions.COUNT));
    assertEquals(1, value(other, TestFunctions.COUNT));

    waitForVisibility();
    QueueBatchResult last = pollAll(runtime);

    assertEquals(List.of(), last.failedMessageIds());
    assertEquals(1, last.deadLettered(), "the second attempt was the last");
    assertEquals(2, value(flaky, TestFunctions.COUNT), "the address carried on");
    List<Map.Entry<String, Map<String, String>>> dead = deadLetters().peekAll();
    assertEquals(1, dead.size());
    assertTrue(dead.get(0).getKey().contains("\"fail\""), dead.get(0).getKey());
    assertTrue(dead.get(0).getValue().get("statekit.error").contains("asked to fail"));
    assertEquals("2", dead.get(0).getValue().get("statekit.attempts"));
  }

  @Test
  void badInputIsDeadLetteredWithItsErrorAndTheRestIsApplied() {
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(1));
    Address good = address(TestFunctions.COUNTER, "good");
    enqueueRaw("group-a", "this is not json");
    enqueueRaw("group-b", "{\"target\":\"nobody/here/1\",\"typename\":\"a/b\",\"value\":1}");
    enqueue(MessageBuilder.forAddress(good).withValue(5L).build());
    enqueue(
        MessageBuilder.forAddress(address(TestFunctions.COUNTER, "typed"))
            .withValue("five")
            .build());
    enqueue(
        MessageBuilder.forAddress(address(TestFunctions.BLOB, "big")).withValue(500_000L).build());
    enqueue(MessageBuilder.forAddress(good).withValue(6L).build());

    LambdaLikeWorker.drain(queue(), runtime, 2);

    assertEquals(11, value(good, TestFunctions.SUM));
    List<String> errors =
        deadLetters().peekAll().stream().map(e -> e.getValue().get("statekit.error")).toList();
    assertEquals(4, errors.size(), errors.toString());
    assertTrue(errors.stream().anyMatch(e -> e.contains("not JSON")), errors.toString());
    assertTrue(
        errors.stream().anyMatch(e -> e.contains("No registered function")), errors.toString());
    assertTrue(
        errors.stream().anyMatch(e -> e.contains("io.statefun.types/long")), errors.toString());
    assertTrue(errors.stream().anyMatch(e -> e.contains("more than the")), errors.toString());
    assertEquals(0, store().reload(address(TestFunctions.BLOB, "big")).values().size());
  }

  @Test
  void aMessageDeliveredTwiceIsAppliedOnce() {
    FunctionRuntime runtime = runtime();
    Address a = address(TestFunctions.COUNTER, "twice");
    for (long i = 1; i <= 3; i++) {
      enqueue(MessageBuilder.forAddress(a).withValue(i).build());
    }
    List<QueueSource.Received> batch = queue().receive(10);
    List<QueueMessage> messages = batch.stream().map(QueueSource.Received::message).toList();

    QueueBatchResult first = runtime.processQueueBatch(messages);
    QueueBatchResult again = runtime.processQueueBatch(messages);

    assertEquals(3, first.applied());
    assertEquals(3, again.duplicates());
    assertEquals(6, value(a, TestFunctions.SUM));
    assertEquals(3, counted.records().size());
    assertEquals(3, counted.deliveries(), "a proven outbox is not delivered again");
  }

  /**
   * A FIFO message whose visibility timeout ran out within the batching window is received twice
   * into one batch: its second copy is a repeat of the first, not of anything committed before.
   * Before, both were applied.
   */
  @Test
  void aMessageTwiceInOneBatchIsAppliedOnce() {
    FunctionRuntime runtime = runtime();
    Address a = address(TestFunctions.COUNTER, "twice-in-one");
    for (long i = 1; i <= 2; i++) {
      enqueue(MessageBuilder.forAddress(a).withValue(i).build());
    }
    List<QueueMessage> messages =
        queue().receive(10).stream().map(QueueSource.Received::message).toList();
    List<QueueMessage> twice = new java.util.ArrayList<>(messages);
    twice.addAll(messages);

    QueueBatchResult result = runtime.processQueueBatch(twice);

    assertEquals(2, result.applied(), result.toString());
    assertEquals(2, result.duplicates(), result.toString());
    assertEquals(3, value(a, TestFunctions.SUM));
    assertEquals(2, counted.records().size());
  }

  @Test
  void aCrashAfterTheCommitIsRepairedWhenTheBatchComesBack() {
    Address a = address(TestFunctions.COUNTER, "crash");
    FunctionRuntime crashing =
        runtime(
            b ->
                b.faultHook(
                    (step, address) -> {
                      if (step == FaultHook.Step.COMMITTED) {
                        throw new SimulatedCrash();
                      }
                    }));
    FunctionRuntime healthy = runtime();
    Address total = Address.of(TestFunctions.TOTAL, "all");
    long before = value(total, TestFunctions.SUM);
    enqueue(MessageBuilder.forAddress(a).withValue(40L).build());
    enqueue(MessageBuilder.forAddress(a).withValue(2L).build());

    assertThrows(SimulatedCrash.class, () -> LambdaLikeWorker.pollOnce(queue(), crashing));
    assertEquals(42, value(a, TestFunctions.SUM), "committed before the crash");
    assertEquals(0, counted.records().size(), "nothing delivered before the crash");
    waitForVisibility();
    drain(healthy);

    assertEquals(42, value(a, TestFunctions.SUM));
    assertEquals(42, value(total, TestFunctions.SUM) - before);
    assertEquals(2, counted.records().size());
  }

  /** A test's stand-in for the process dying. */
  static final class SimulatedCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SimulatedCrash() {
      super("simulated crash");
    }
  }

  QueueBatchResult pollAll(FunctionRuntime runtime) {
    List<QueueSource.Received> batch = queue().receive(10);
    QueueBatchResult result =
        runtime.processQueueBatch(batch.stream().map(QueueSource.Received::message).toList());
    for (QueueSource.Received received : batch) {
      if (!result.failedMessageIds().contains(received.message().messageId())) {
        queue().delete(received.receiptHandle());
      }
    }
    return result;
  }

  void enqueueRaw(String group, String body) {
    queue().bus().send(List.of(new BusMessage(group, UUID.randomUUID().toString(), body)));
  }

  static Message string(Address target, String value) {
    return MessageBuilder.forAddress(target).withValue(value).build();
  }
}
