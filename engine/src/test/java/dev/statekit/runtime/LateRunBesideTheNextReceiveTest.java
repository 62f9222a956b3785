package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.MessageBuilder;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run left behind at a queue batch's deadline goes on in the same process while the next receive
 * (Lambda's next invocation in the same environment) takes its messages again: the late run must
 * write nothing, answer nothing and send nothing, whatever it ends with.
 */
class LateRunBesideTheNextReceiveTest {
  private static final ValueSpec<Integer> COUNT = ValueSpec.named("count").withIntType();
  private static final TypeName FAN = TypeName.of("t", "fan");
  private static final TypeName COUNTER = TypeName.of("t", "counter");

  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch lateEnded = new CountDownLatch(1);
  private final AtomicBoolean blockNext = new AtomicBoolean();
  private final AtomicBoolean failNext = new AtomicBoolean();
  private final Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
  private final Clock clock = Clock.systemUTC();
  private final InMemoryMessageBus queue = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
  private final InMemoryMessageBus deadLetters =
      new InMemoryMessageBus(clock, Duration.ofSeconds(30));

  @AfterEach
  void releaseTheLateRun() {
    release.countDown();
  }

  @Test
  void aLateRunBesideTheNextReceiveOfItsAddressAppliesNothingTwice() throws Exception {
    FunctionRuntime runtime = runtime();
    assertEquals(
        List.of(), failed(runtime, FifoEnvelopes.message("m-0", "t/fan/f", 1, 1), Deadline.none()));

    blockNext.set(true);
    assertEquals(
        List.of("m-1"),
        failed(runtime, FifoEnvelopes.message("m-1", "t/fan/f", 2, 1), Deadline.after(ms(600))));

    // The next receive takes m-1 again while its first run still runs.
    assertEquals(
        List.of(), failed(runtime, FifoEnvelopes.message("m-1", "t/fan/f", 2, 2), Deadline.none()));
    release.countDown();
    assertTrue(lateEnded.await(10, TimeUnit.SECONDS));
    Thread.sleep(200);
    assertEquals(
        List.of(), failed(runtime, FifoEnvelopes.message("m-2", "t/fan/f", 3, 1), Deadline.none()));
    drain(runtime);

    assertEquals(List.of(1, 2, 3), seen.get("target"), "each message's effect once, in order");
    assertEquals(List.of(), deadLetters.peekAll());
  }

  @Test
  void aMessageOnItsLastAttemptLeftBehindIsDeadLetteredOnceAndItsLateRunSendsNothing()
      throws Exception {
    FunctionRuntime runtime = runtime();
    blockNext.set(true);
    // Its late run fails: on the last attempt that would dead-letter it in the commit.
    failNext.set(true);
    assertEquals(
        List.of(),
        failed(runtime, FifoEnvelopes.message("m-1", "t/fan/f", 1, 5), Deadline.after(ms(600))));
    List<BusMessage> letters = deadLetters.peekAll();
    assertEquals(1, letters.size(), "dead-lettered when the batch gave it up");
    assertEquals("unknown", letters.get(0).attributes().get("statekit.applied"));

    release.countDown();
    assertTrue(lateEnded.await(10, TimeUnit.SECONDS));
    Thread.sleep(300);
    drain(runtime);
    assertEquals(1, deadLetters.peekAll().size(), "the late run sends no dead letter of its own");
    assertEquals(null, seen.get("target"), "and nothing of it is applied");
  }

  private List<String> failed(FunctionRuntime runtime, QueueMessage message, Deadline deadline) {
    return runtime.processQueueBatch(List.of(message), deadline).failedMessageIds();
  }

  /** Takes what the outboxes sent to the queue through the runtime until none is left. */
  private void drain(FunctionRuntime runtime) {
    for (int i = 0; i < 20 && queue.size() > 0; i++) {
      List<InMemoryMessageBus.Received> received = queue.receive(10);
      List<QueueMessage> messages = new ArrayList<>();
      received.forEach(r -> messages.add(r.message()));
      List<String> failed = runtime.processQueueBatch(messages, Deadline.none()).failedMessageIds();
      for (InMemoryMessageBus.Received r : received) {
        if (!failed.contains(r.message().messageId())) {
          queue.delete(r.receiptHandle());
        }
      }
    }
    assertEquals(0, queue.size(), "drained");
  }

  private FunctionRuntime runtime() {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                FAN,
                (context, message) -> {
                  if (blockNext.getAndSet(false)) {
                    try {
                      release.await(10, TimeUnit.SECONDS);
                      if (failNext.getAndSet(false)) {
                        throw new IllegalStateException("the late run fails");
                      }
                    } finally {
                      lateEnded.countDown();
                    }
                  }
                  context.storage().set(COUNT, context.storage().get(COUNT).orElse(0) + 1);
                  context.send(MessageBuilder.forAddress(COUNTER, "target").withValue("x").build());
                },
                COUNT)
            .withFunction(
                COUNTER,
                (context, message) -> {
                  int next = context.storage().get(COUNT).orElse(0) + 1;
                  seen.computeIfAbsent(context.self().id(), k -> new CopyOnWriteArrayList<>())
                      .add(next);
                  context.storage().set(COUNT, next);
                },
                COUNT)
            .build();
    return FunctionRuntime.builder(functions)
        .store(new InMemoryFunctionStore())
        .queue(queue)
        .deadLetters(deadLetters)
        .egress(EgressRoutes.none())
        .build();
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}
