package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Schedules of a review of the queue batch's deadline: the batch answers before it whatever its
 * functions take, and what it does not start or wait for is still answered as the runtime's failure
 * handling promises (a message on its last attempt never goes back to the queue).
 */
class BatchDeadlineReviewTest {
  private static final ValueSpec<Integer> COUNT = ValueSpec.named("count").withIntType();
  private static final ValueSpec<String> TEXT = ValueSpec.named("text").withUtf8StringType();

  private final CountDownLatch release = new CountDownLatch(1);
  private final Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
  private final Map<String, Long> pauses = new ConcurrentHashMap<>();
  private final InMemoryMessageBus deadLetters =
      new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));

  @AfterEach
  void releaseTheHangingFunction() {
    release.countDown();
  }

  /**
   * A function whose dependency hangs is left behind at each receive's deadline, and its run holds
   * a thread of the runtime's pool into the next receive of the same environment. Once such runs
   * hold every thread, the next receive runs its addresses on its own thread, unbounded: a run that
   * hangs again holds the whole invocation past its deadline (Lambda's timeout), as before the
   * deadline was taken, and its healthy neighbour comes again with it.
   */
  @Test
  void functionsLeftBehindHoldingEveryThreadDoNotHoldTheNextReceivePastItsDeadline() {
    FunctionRuntime runtime = runtime(b -> b.parallelism(2));
    QueueBatchResult first =
        runtime.processQueueBatch(
            List.of(
                FifoEnvelopes.message("m-1", "t/hang/h1", 1, 1),
                FifoEnvelopes.message("m-2", "t/hang/h2", 1, 1)),
            Deadline.after(ms(1000)));
    assertEquals(List.of("m-1", "m-2"), first.failedMessageIds(), first.errors().toString());

    long start = System.nanoTime();
    QueueBatchResult second =
        runtime.processQueueBatch(
            List.of(
                FifoEnvelopes.message("m-3", "t/counter/a", 1, 1),
                FifoEnvelopes.message("m-1", "t/hang/h1", 1, 2)),
            Deadline.after(ms(1000)));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;

    assertTrue(
        tookMillis < 1000,
        "answered before the deadline of 1 s, took " + tookMillis + " ms: " + second.errors());
    assertEquals(
        List.of("m-1"),
        second.failedMessageIds(),
        "the healthy neighbour is applied: " + second.errors());
    assertEquals(List.of(1), seen.get("a"));
  }

  /**
   * On one receive the pool's only thread runs the first address and ends; the batch then hands the
   * second address to the pool before that thread is back for work, is refused, and runs the second
   * address's function on its own thread: a slow one holds the batch past its deadline.
   */
  @Test
  void aSlowFunctionAfterAFastOneIsNotRunOnTheBatchsOwnThreadPastTheDeadline()
      throws InterruptedException {
    pauses.put("s", 1500L);
    FunctionRuntime runtime = runtime(b -> b.parallelism(1));
    List<String> late = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      // The slow run left behind by the receive before has ended: the pool's thread is idle.
      Thread.sleep(1600);
      long start = System.nanoTime();
      QueueBatchResult result =
          runtime.processQueueBatch(
              List.of(
                  FifoEnvelopes.message("a-" + i, "t/counter/a", i + 1, 1),
                  FifoEnvelopes.message("s-" + i, "t/counter/s", i + 1, 1)),
              Deadline.after(ms(1000)));
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      if (tookMillis >= 1000) {
        late.add("receive " + i + ": " + tookMillis + " ms, " + result.errors());
      }
    }
    assertTrue(late.isEmpty(), "receives past their 1 s deadline: " + late);
  }

  /**
   * More addresses than threads: the third waits for a thread. When the first ends, its thread is
   * not back for work yet, the pool refuses the third, and the batch, with the second (slow) still
   * running, waits for the next call to end instead of for the next free thread: the third, a
   * healthy neighbour, never starts while a thread sits idle, and fails as "had not answered".
   */
  @Test
  void aHealthyAddressWaitingForAThreadGetsTheOneAFastNeighbourFreed() throws InterruptedException {
    pauses.put("slow", 800L);
    FunctionRuntime runtime = runtime(b -> b.parallelism(2));
    List<String> starved = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      QueueBatchResult result =
          runtime.processQueueBatch(
              List.of(
                  FifoEnvelopes.message("a-" + i, "t/counter/a", i + 1, 1),
                  FifoEnvelopes.message("s-" + i, "t/counter/slow", i + 1, 1),
                  FifoEnvelopes.message("b-" + i, "t/counter/b", i + 1, 1)),
              Deadline.after(ms(450)));
      if (result.failedMessageIds().contains("b-" + i)) {
        starved.add("receive " + i + ": " + result.errors().get("b-" + i));
      }
      // The slow run left behind by this receive ends before the next.
      Thread.sleep(600);
    }
    assertTrue(starved.isEmpty(), "a healthy neighbour never started: " + starved);
  }

  /**
   * A message on its last attempt that the start limit kept from running (the message before it
   * took the time) is answered as failed and goes back to the queue: the runtime promises that a
   * message on its last attempt is dead-lettered with its error instead. Received again, past its
   * last attempt, it is then dead-lettered as one whose last attempt "failed and may have
   * dead-lettered it": a healthy message that never ran, dead-lettered unapplied with an error that
   * is not its own.
   */
  @Test
  void aMessageOnItsLastAttemptThatTheStartLimitKeptFromRunningDoesNotGoBackToTheQueue() {
    // 3 s: no invocation starts after 2 s, the batch waits until 2.5 s.
    pauses.put("g", 2200L);
    FunctionRuntime runtime = runtime(b -> b.maxAttempts(5));
    QueueBatchResult result =
        runtime.processQueueBatch(
            List.of(
                FifoEnvelopes.message("m-1", "t/counter/g", 1, 5),
                FifoEnvelopes.message("m-2", "t/counter/g", 2, 5)),
            Deadline.after(ms(3000)));
    assertEquals(List.of(1), seen.get("g"), "the first ran: " + result.errors());

    assertFalse(
        result.failedMessageIds().contains("m-2"),
        "on its last attempt, m-2 must not come again (the queue's redrive, or the runtime's"
            + " 'past its last attempt', then dead-letters it without its error): "
            + result.errors()
            + "; dead letters "
            + letters());
  }

  /**
   * A function whose state grows past what an item holds is found by running the address's
   * invocations again one by one; when its first run ended after the start limit, that run starts
   * none, and the search for the culprit takes the first of an empty list: the prepare throws, the
   * batch throws, and its healthy neighbour, which answered in time, is not committed (every
   * message of the batch comes again; on a last attempt, silently).
   */
  @Test
  void aStateTooLargeFoundAfterTheStartLimitDoesNotFailTheWholeBatch() {
    // 3 s: no invocation starts after 2 s, the batch waits until 2.5 s.
    pauses.put("big", 2200L);
    FunctionRuntime runtime = runtime(b -> b);
    QueueBatchResult result =
        runtime.processQueueBatch(
            List.of(
                FifoEnvelopes.message("m-1", "t/counter/a", 1, 1),
                FifoEnvelopes.message("m-2", "t/big/big", 1, 1)),
            Deadline.after(ms(3000)));

    assertFalse(result.failedMessageIds().contains("m-1"), result.errors().toString());
    assertEquals(List.of(1), seen.get("a"));
  }

  private List<String> letters() {
    return deadLetters.peekAll().stream()
        .map(BusMessage::attributes)
        .map(a -> a.get("statekit.message-id") + ": " + a.get("statekit.error"))
        .toList();
  }

  private FunctionRuntime runtime(UnaryOperator<FunctionRuntime.Builder> options) {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                TypeName.of("t", "counter"),
                (context, message) -> {
                  Long pause = pauses.get(context.self().id());
                  if (pause != null) {
                    Thread.sleep(pause);
                  }
                  int next = context.storage().get(COUNT).orElse(0) + 1;
                  count(context.self().id(), next);
                  context.storage().set(COUNT, next);
                },
                COUNT)
            .withFunction(
                TypeName.of("t", "hang"),
                (context, message) -> {
                  release.await(3, TimeUnit.SECONDS);
                  int next = context.storage().get(COUNT).orElse(0) + 1;
                  count(context.self().id(), next);
                  context.storage().set(COUNT, next);
                },
                COUNT)
            .withFunction(
                TypeName.of("t", "big"),
                (context, message) -> {
                  Thread.sleep(pauses.getOrDefault(context.self().id(), 0L));
                  // More than a DynamoDB item holds.
                  context.storage().set(TEXT, "x".repeat(450_000));
                },
                TEXT)
            .build();
    Clock clock = Clock.systemUTC();
    return options
        .apply(
            FunctionRuntime.builder(functions)
                .store(new InMemoryFunctionStore())
                .queue(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
                .deadLetters(deadLetters)
                .egress(EgressRoutes.none()))
        .build();
  }

  private void count(String id, int value) {
    seen.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(value);
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}
