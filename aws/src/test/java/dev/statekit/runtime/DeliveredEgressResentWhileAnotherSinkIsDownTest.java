package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariant: exactly once at a FIFO egress queue (docs/runtime.md "Egress sinks": {@code
 * SqsEgressSink} on a FIFO queue is "exactly once within SQS's 5-minute deduplication ..., which
 * covers a redelivery after a crash"; a record is "delivered again ... only when the runtime cannot
 * know that a delivery finished").
 *
 * <p>Schedule (no crash, no lost answer): one message makes an address emit one record to egress A
 * (a FIFO {@code SqsEgressSink}, up) and one to egress B (a sink that is down for a while). The
 * first delivery puts A's record on its queue and fails B's; the runtime knows A's went out (it is
 * not in the try's Undelivered). Every later try of the outbox (the message coming again, the sweep
 * every {@code outboxSweepAfter}) delivers the WHOLE outbox again, A's record included. Once the
 * tries span more than SQS's five minutes of deduplication, the FIFO queue takes A's record a
 * second (and third) time. On a standard queue or Kinesis every try is a repeat.
 */
class DeliveredEgressResentWhileAnotherSinkIsDownTest extends RuntimeFixture {
  static final TypeName BOTH = TypeName.of("review", "both");

  static void both(Context context, Message message) {
    context.send(EgressMessageBuilder.forEgress(TestFunctions.COUNTED).withValue("to-a").build());
    context.send(EgressMessageBuilder.forEgress(TestFunctions.FIRED).withValue("to-b").build());
  }

  /** Down until {@code upAt} on the test's clock, then up; logs each call's minute. */
  final class DownForAWhile implements EgressSink {
    final java.time.Instant upAt;
    final List<String> calls = new java.util.ArrayList<>();

    DownForAWhile(Duration downFor) {
      this.upAt = clock.instant().plus(downFor);
    }

    @Override
    public synchronized void deliver(List<EgressRecord> records) {
      boolean down = clock.instant().isBefore(upAt);
      calls.add(clock.instant() + (down ? " down" : " up"));
      if (down) {
        throw new EgressException("sink B is down (simulated)", null);
      }
    }
  }

  @Test
  void aRecordDeliveredToOneSinkIsNotDeliveredAgainWhileAnotherSinkIsDown() {
    InMemoryMessageBus fifoA = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    DownForAWhile sinkB = new DownForAWhile(Duration.ofMinutes(10));
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(BOTH, DeliveredEgressResentWhileAnotherSinkIsDownTest::both)
            .build();
    FunctionRuntime runtime =
        runtime(
            b ->
                b.maxAttempts(5)
                    .egress(
                        EgressRoutes.builder()
                            .route(TestFunctions.COUNTED, new SqsEgressSink(fifoA))
                            .route(TestFunctions.FIRED, sinkB)
                            .build()),
            functions);
    Address a = address(BOTH, "a");
    enqueue(MessageBuilder.forAddress(a).withValue("go").build());
    for (int round = 0; round < 8; round++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      drain(runtime);
      clock.advance(Duration.ofMinutes(3));
      runtime.sweepTimers();
      drain(runtime);
      waitForVisibility();
    }

    assertEquals(
        0,
        outboxesLeftLater(runtime),
        "the outbox is settled (B's record delivered or dead-lettered)");
    long copies =
        fifoA.peekAll().stream()
            .filter(m -> m.attributes().get("statekit.record-id") != null)
            .count();
    assertEquals(
        1,
        copies,
        "copies of A's one record on its FIFO egress queue (B was down for "
            + " 10 minutes; its tries: "
            + sinkB.calls
            + ")");
  }
}
