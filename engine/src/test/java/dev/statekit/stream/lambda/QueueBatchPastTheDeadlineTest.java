package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.entry.EntryPoint;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An SQS batch whose messages together take longer than the function's timeout (a map calling a
 * slow dependency, 50 ms a message, 100 messages, a 3 s timeout). Lambda cuts an invocation off at
 * its timeout with none of its answers, so every message of the batch came again, each try, until
 * the redrive policy moved them all, healthy ones too, to the dead-letter queue. The batch now
 * stops taking messages while a reserve of its time is left, applies and receipts what it took and
 * answers the rest as failed: only those come again, each applied once (on a FIFO queue in its
 * group's order).
 */
class QueueBatchPastTheDeadlineTest {
  private static final int MESSAGES = 100;

  private static DeadlineTries slowMap(String queue) {
    return running(
        queue,
        bytes -> {
          DeadlineTries.slowly();
          return new String(bytes, StandardCharsets.UTF_8);
        },
        (a, b) -> a + " " + b);
  }

  /** The keyed function is the slow step; {@code check} runs before it on each value. */
  private static DeadlineTries slowReduce(String queue, java.util.function.Consumer<String> check) {
    return running(
        queue,
        bytes -> new String(bytes, StandardCharsets.UTF_8),
        (a, b) -> {
          check.accept(b);
          DeadlineTries.slowly();
          return a + " " + b;
        });
  }

  /** A running concatenation per key (message i of key i % 4). */
  private static DeadlineTries running(
      String queue,
      java.util.function.Function<byte[], String> map,
      java.util.function.BinaryOperator<String> reduce) {
    return new DeadlineTries(
        sink -> {
          BatchPipeline pipeline =
              BatchPipeline.builder(
                      "slow",
                      Pipeline.from(BatchSource.records())
                          .map(map)
                          .keyBy(text -> "k" + Integer.parseInt(text) % 4)
                          .reduce(reduce, Serdes.string())
                          .to(
                              EgressOutput.to(
                                  sink, TypeName.of("test", "runs"), Types.stringType())))
                  .store(new InMemoryBatchStore())
                  .batchTimeout(DeadlineTries.TIMEOUT)
                  .build();
          return EntryPoint.builder().queue(queue, pipeline.queueConsumer()).build();
        });
  }

  private static LambdaEvents.Message message(int i, boolean fifo) {
    return new LambdaEvents.Message(
        "m" + i, Integer.toString(i), fifo ? "g" + i % 4 : null, Long.toString(1_000 + i));
  }

  /**
   * Hands the messages over, then each try the messages the one before answered as failed (in the
   * order given by {@code order}); returns the number of tries.
   */
  private static int drain(
      DeadlineTries tries,
      String queue,
      boolean fifo,
      java.util.function.UnaryOperator<List<LambdaEvents.Message>> order) {
    List<LambdaEvents.Message> handed = new ArrayList<>();
    IntStream.range(0, MESSAGES).forEach(i -> handed.add(message(i, fifo)));
    for (int round = 1; ; round++) {
      assertTrue(round <= 20, "the messages were not all taken in 20 tries");
      List<String> failed = tries.invoke(LambdaEvents.sqs(queue, handed), handed.size());
      if (failed.isEmpty()) {
        return round;
      }
      if (fifo) {
        // A group's failed messages are its last ones of the batch: the rest of it comes again.
        Map<String, Boolean> failing = new HashMap<>();
        for (LambdaEvents.Message m : handed) {
          boolean back = failed.contains(m.id());
          assertTrue(
              back || !failing.getOrDefault(m.group(), false),
              m.id() + " was applied after a message of its group that goes back: " + failed);
          failing.merge(m.group(), back, Boolean::logicalOr);
        }
      }
      List<LambdaEvents.Message> again = new ArrayList<>();
      for (LambdaEvents.Message m : handed) {
        if (failed.contains(m.id())) {
          again.add(m);
        }
      }
      assertEquals(failed.size(), again.size(), "answered ids that were not handed: " + failed);
      handed.clear();
      handed.addAll(order.apply(again));
    }
  }

  /**
   * The keyed function is the slow step: the batch stops taking messages in its keyed pass, and
   * hands back every message from there on, each group's in order.
   */
  @Test
  void aSlowKeyedFunctionOnAFifoQueueStopsInTimeInGroupOrder() {
    DeadlineTries tries = slowReduce("orders.fifo", value -> {});

    int rounds = drain(tries, "orders.fifo", true, messages -> messages);

    assertTrue(rounds > 1, "the batch fitted in one try: " + tries.tries());
    assertEquals(MESSAGES, tries.outputs().size(), "one output per message");
    assertEquals(
        DeadlineTries.runningConcatenations(
            IntStream.range(0, MESSAGES).boxed().toList(), i -> "k" + i % 4),
        new HashSet<>(tries.outputs().values()));
  }

  /**
   * Messages that fail once in a slow keyed function: the pass that met them runs again from the
   * stored state without them, and stops by the deadline too, taking at least one message.
   */
  @Test
  void aSlowKeyedFunctionWithMessagesFailingOnceStillAppliesEachOnce() {
    Set<String> failedOnce = java.util.concurrent.ConcurrentHashMap.newKeySet();
    DeadlineTries tries =
        slowReduce(
            "orders",
            value -> {
              if ((value.equals("9") || value.equals("42")) && failedOnce.add(value)) {
                throw new IllegalStateException("a lookup for " + value + " timed out");
              }
            });

    int rounds = drain(tries, "orders", false, messages -> messages);

    assertTrue(rounds > 1, "the batch fitted in one try: " + tries.tries());
    assertEquals(Set.of("9", "42"), failedOnce);
    assertEquals(MESSAGES, tries.outputs().size(), "one output per message");
    assertEachKeyAppliedEachMessageOnce(tries.outputs());
  }

  @Test
  void aFifoBatchLongerThanTheTimeoutIsTakenOverSeveralTriesInGroupOrder() {
    DeadlineTries tries = slowMap("orders.fifo");

    int rounds = drain(tries, "orders.fifo", true, messages -> messages);

    assertTrue(rounds > 1, "the batch fitted in one try: " + tries.tries());
    assertEquals(MESSAGES, tries.outputs().size(), "one output per message");
    assertEquals(
        DeadlineTries.runningConcatenations(
            IntStream.range(0, MESSAGES).boxed().toList(), i -> "k" + i % 4),
        new HashSet<>(tries.outputs().values()));
  }

  /** A standard queue hands messages over again in any order: each is applied once. */
  @Test
  void aStandardBatchLongerThanTheTimeoutIsTakenOverSeveralTriesEachMessageOnce() {
    DeadlineTries tries = slowMap("orders");
    Random random = new Random(42);

    int rounds =
        drain(
            tries,
            "orders",
            false,
            messages -> {
              List<LambdaEvents.Message> shuffled = new ArrayList<>(messages);
              Collections.shuffle(shuffled, random);
              return shuffled;
            });

    assertTrue(rounds > 1, "the batch fitted in one try: " + tries.tries());
    Map<String, String> outputs = tries.outputs();
    assertEquals(MESSAGES, outputs.size(), "one output per message");
    assertEachKeyAppliedEachMessageOnce(outputs);
  }

  /** Each key's longest running concatenation holds each of its messages once. */
  private static void assertEachKeyAppliedEachMessageOnce(Map<String, String> outputs) {
    Map<String, List<Integer>> last = new HashMap<>();
    for (String value : outputs.values()) {
      List<Integer> values =
          java.util.Arrays.stream(value.split(" ")).map(Integer::parseInt).toList();
      last.merge("k" + values.get(0) % 4, values, (a, b) -> a.size() >= b.size() ? a : b);
    }
    for (int key = 0; key < 4; key++) {
      int k = key;
      List<Integer> mine = new ArrayList<>(last.get("k" + key));
      Collections.sort(mine);
      assertEquals(
          IntStream.range(0, MESSAGES).filter(i -> i % 4 == k).boxed().toList(),
          mine,
          "key k" + key + " applied each of its messages once");
    }
  }
}
