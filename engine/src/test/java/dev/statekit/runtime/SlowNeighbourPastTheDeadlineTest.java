package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A queue batch answers before its Lambda invocation's deadline whatever its functions take. Cut
 * off at its timeout, an invocation answers nothing: every message of the batch comes again, and
 * one function that does not answer in time (or a FIFO group whose messages together outlast the
 * timeout) would time its healthy neighbours out on every receive until they were dead-lettered
 * unapplied.
 */
class SlowNeighbourPastTheDeadlineTest {
  private static final ValueSpec<Integer> COUNT = ValueSpec.named("count").withIntType();

  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch slowEnded = new CountDownLatch(1);
  private final Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
  private volatile long pauseMillis;

  @AfterEach
  void releaseTheSlowFunction() {
    release.countDown();
  }

  @Test
  void aFunctionThatDoesNotAnswerInTimeFailsAloneAndItsLateRunWritesNothing() throws Exception {
    FunctionRuntime runtime = runtime();
    List<QueueMessage> batch =
        List.of(
            FifoEnvelopes.message("m-1", "t/slow/s", 1, 1),
            FifoEnvelopes.message("m-2", "t/counter/a", 2, 1),
            FifoEnvelopes.message("m-3", "t/counter/b", 3, 1));

    long start = System.nanoTime();
    QueueBatchResult result = runtime.processQueueBatch(batch, Deadline.after(ms(1500)));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;

    assertTrue(tookMillis < 1500, "answered before the deadline, took " + tookMillis + " ms");
    assertEquals(List.of("m-1"), result.failedMessageIds(), result.errors().toString());
    assertTrue(result.errors().get("m-1").contains("had not answered"), result.errors().toString());
    assertEquals(List.of(1), seen.get("a"), "the neighbours are applied");
    assertEquals(List.of(1), seen.get("b"));

    // The slow run ends after the batch answered: it must commit nothing.
    release.countDown();
    assertTrue(slowEnded.await(10, TimeUnit.SECONDS));
    Thread.sleep(200);
    QueueBatchResult again =
        runtime.processQueueBatch(
            List.of(FifoEnvelopes.message("m-1", "t/slow/s", 1, 2)), Deadline.none());
    assertEquals(List.of(), again.failedMessageIds(), again.errors().toString());
    assertEquals(
        List.of(1, 1), seen.get("s"), "the late run counted 1 and was dropped; its retry counts 1");
  }

  @Test
  void aGroupWhoseMessagesOutlastTheDeadlineCommitsWhatRanAndTheRestComesAgain() {
    FunctionRuntime runtime = runtime();
    pauseMillis = 250;
    List<QueueMessage> batch = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      batch.add(FifoEnvelopes.message("m-" + i, "t/counter/g", i, 1));
    }

    List<QueueMessage> left = batch;
    int receives = 0;
    while (!left.isEmpty()) {
      assertTrue(++receives <= 6, "drained in a few receives; left " + left);
      long start = System.nanoTime();
      QueueBatchResult result = runtime.processQueueBatch(left, Deadline.after(ms(2000)));
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMillis < 2000, "answered before the deadline, took " + tookMillis + " ms");
      List<QueueMessage> next = new ArrayList<>();
      for (QueueMessage m : left) {
        if (result.failedMessageIds().contains(m.messageId())) {
          next.add(
              new QueueMessage(
                  m.messageId(), m.body(), m.groupId(), m.sequenceNumber(), m.receiveCount() + 1));
        }
      }
      assertTrue(next.size() < left.size(), "every receive applies some: " + result.errors());
      if (receives == 1) {
        assertFalse(next.isEmpty(), "ten messages of 250 ms do not fit a 2 s invocation");
      }
      left = next;
    }
    assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), seen.get("g"), "once each, in order");
  }

  private FunctionRuntime runtime() {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                TypeName.of("t", "counter"),
                (context, message) -> {
                  if (pauseMillis > 0) {
                    Thread.sleep(pauseMillis);
                  }
                  count(context.self().id(), context.storage().get(COUNT).orElse(0) + 1);
                  context.storage().set(COUNT, context.storage().get(COUNT).orElse(0) + 1);
                },
                COUNT)
            .withFunction(
                TypeName.of("t", "slow"),
                (context, message) -> {
                  try {
                    release.await(20, TimeUnit.SECONDS);
                    int next = context.storage().get(COUNT).orElse(0) + 1;
                    count(context.self().id(), next);
                    context.storage().set(COUNT, next);
                  } finally {
                    slowEnded.countDown();
                  }
                },
                COUNT)
            .build();
    Clock clock = Clock.systemUTC();
    return FunctionRuntime.builder(functions)
        .store(new InMemoryFunctionStore())
        .queue(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
        .deadLetters(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
        .egress(EgressRoutes.none())
        .build();
  }

  private void count(String id, int value) {
    seen.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(value);
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}
