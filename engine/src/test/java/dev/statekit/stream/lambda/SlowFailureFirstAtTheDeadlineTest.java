package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.entry.EntryPoint;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A queue batch whose first message fails slowly in the operators before the {@code keyBy} (a
 * lookup that times out after most of the function's timeout), followed by healthy, fast messages.
 * Before the deadline cut, the batch ran the poison message, failed it, and applied the others in
 * the same try. The stateless pass now counts the failed message as the record "always taken", then
 * finds the reserve reached and takes none of the others: every try answers the whole batch as
 * failed, the healthy messages' receive counts grow with the poison message's, and at the queue's
 * maxReceiveCount the redrive policy moves them all to the dead-letter queue, unapplied, with no
 * word of why (reliability invariant 5; exactly what the deadline cut was made to stop).
 *
 * <p>Schedule: a standard queue and a FIFO queue (the poison message in its own group), 10
 * messages, the poison first; a 1.5 s timeout (reserve 500 ms), the poison's lookup fails after 1.1
 * s; the others take no time. SQS hands the failed messages over again in the same order, up to
 * maxReceiveCount 5. Expected: each try applies at least one healthy message, as the keyed pass
 * already counts only a record it applied (or found applied) as the one it always takes, so that
 * the batch moves on. (Before 4e97054 the first try applied all nine.)
 */
class SlowFailureFirstAtTheDeadlineTest {
  private static final Duration TIMEOUT = Duration.ofMillis(1500);
  private static final int MAX_RECEIVE_COUNT = 5;

  @Test
  void aStandardQueuesHealthyMessagesAreNotHeldBehindASlowPoisonMessage() {
    assertHealthyApplied("orders", false);
  }

  @Test
  void aFifoQueuesOtherGroupsAreNotHeldBehindASlowPoisonMessage() {
    assertHealthyApplied("orders.fifo", true);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void assertHealthyApplied(String queue, boolean fifo) {
    List<String> delivered = java.util.Collections.synchronizedList(new ArrayList<>());
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "lookups",
                Pipeline.from(BatchSource.records())
                    .map(
                        bytes -> {
                          String text = new String(bytes, StandardCharsets.UTF_8);
                          if (text.equals("poison")) {
                            sleep(1100);
                            throw new IllegalStateException("the lookup of poison timed out");
                          }
                          return text;
                        })
                    .keyBy(text -> text)
                    .reduce((a, b) -> a + " " + b, Serdes.string())
                    .to(
                        EgressOutput.to(
                            records -> records.forEach(r -> delivered.add(r.textOrBase64())),
                            TypeName.of("test", "values"),
                            Types.stringType())))
            .store(new InMemoryBatchStore())
            .batchTimeout(TIMEOUT)
            .build();
    EntryPoint entry = EntryPoint.builder().queue(queue, pipeline.queueConsumer()).build();

    List<LambdaEvents.Message> handed = new ArrayList<>();
    handed.add(new LambdaEvents.Message("m0", "poison", fifo ? "g-poison" : null, "1000"));
    for (int i = 1; i < 10; i++) {
      handed.add(new LambdaEvents.Message("m" + i, "v" + i, fifo ? "g" + i : null, "100" + i));
    }
    Set<String> healthy = new TreeSet<>();
    for (int i = 1; i < 10; i++) {
      healthy.add("v" + i);
    }
    List<List<String>> answers = new ArrayList<>();
    for (int receive = 1; receive <= MAX_RECEIVE_COUNT && handed.size() > 1; receive++) {
      int before = delivered.size();
      List<String> failed =
          LambdaEvents.failures(
              entry.invoke(LambdaEvents.sqs(queue, handed), Deadline.after(TIMEOUT)));
      answers.add(failed);
      assertTrue(
          delivered.size() > before,
          "receive "
              + receive
              + " applied none of the healthy messages, which take no time: a try that takes"
              + " only a failed message does not move the batch on, and at the queue's"
              + " maxReceiveCount ("
              + MAX_RECEIVE_COUNT
              + ") the redrive moves them all to the dead-letter queue unapplied. Answers: "
              + answers);
      handed.removeIf(m -> !failed.contains(m.id()));
    }
    assertEquals("m0", answers.get(answers.size() - 1).get(0), "the poison message fails");
    assertTrue(new TreeSet<>(delivered).stream().allMatch(healthy::contains), "" + delivered);
  }
}
