package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.MessageBus;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * When a sink refuses a call for one record it can never take (one past SQS's size), the runtime
 * delivers the call's records one by one; a record of an address that fails then for a passing
 * reason (throttling) holds its address's later records back, so that they do not reach a FIFO
 * egress queue's group before it ({@code SqsEgressSink} keeps each address's records in order).
 */
class RefusedEgressFallbackOrderTest extends RuntimeFixture {
  static final TypeName BIG = TypeName.of("review", "big");

  /** Sends one egress record past SQS's 256 KiB. */
  static void big(Context context, Message message) {
    context.send(
        EgressMessageBuilder.forEgress(TestFunctions.COUNTED)
            .withValue("y".repeat(300_000))
            .build());
  }

  /**
   * An SQS FIFO queue that fails the first send of one body with {@code reason}: UNAVAILABLE as
   * throttling past the client's retries, INVALID_REQUEST as an SSE-KMS queue's throttling comes
   * ({@code KmsThrottled}, a 400 that passes).
   */
  static final class FailingOnce implements MessageBus {
    final InMemoryMessageBus queue;
    final String body;
    final BusException.Reason reason;
    final AtomicBoolean throttled = new AtomicBoolean();

    FailingOnce(InMemoryMessageBus queue, String body, BusException.Reason reason) {
      this.queue = queue;
      this.body = body;
      this.reason = reason;
    }

    @Override
    public void send(List<BusMessage> messages) {
      for (BusMessage m : messages) {
        if (m.body().equals(body) && throttled.compareAndSet(false, true)) {
          Set<Integer> all = new java.util.HashSet<>();
          for (int i = 0; i < messages.size(); i++) {
            all.add(i);
          }
          throw new BusException(reason, "throttled", all, null);
        }
      }
      queue.send(messages);
    }

    @Override
    public int maxMessageBytes() {
      return queue.maxMessageBytes();
    }
  }

  @Test
  void anAddresssEgressRecordsKeepTheirOrderInAFifoGroupWhenACallIsRefused() {
    assertEquals(
        List.of("1", "2"),
        groupOrder(true, BusException.Reason.UNAVAILABLE),
        "the address's records in its FIFO group, in the order it sent them");
  }

  /**
   * A failure that passes though it comes as a bad request (KMS throttling on an SSE-KMS queue)
   * holds the address's later record back too: it was taken for a refusal for good, which held
   * nothing back, and the later record went first.
   */
  @Test
  void aPassingFailureThatComesAsABadRequestHoldsTheAddresssLaterRecordsBack() {
    assertEquals(
        List.of("1", "2"),
        groupOrder(true, BusException.Reason.INVALID_REQUEST),
        "the address's records in its FIFO group, in the order it sent them");
  }

  /** The control: the same throttling without the refused record keeps the order. */
  @Test
  void withoutARefusedRecordTheSameThrottlingKeepsTheOrder() {
    assertEquals(List.of("1", "2"), groupOrder(false, BusException.Reason.UNAVAILABLE));
  }

  /** What the address's FIFO group of the egress queue holds, in order (the numbers it sent). */
  private List<String> groupOrder(boolean withRefusedRecord, BusException.Reason firstFailure) {
    InMemoryMessageBus fifo = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
    Address a = address(TestFunctions.TALLY, "a");
    Address total = Address.of(TestFunctions.TOTAL, "t-" + run);
    FailingOnce egressQueue = new FailingOnce(fifo, a.id() + ":1", firstFailure);
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(TestFunctions.TALLY, TestFunctions::tally, TestFunctions.COUNT)
            .withFunction(
                TestFunctions.TOTAL, TestFunctions::total, TestFunctions.COUNT, TestFunctions.SUM)
            .withFunction(BIG, RefusedEgressFallbackOrderTest::big)
            .build();
    FunctionRuntime runtime =
        runtime(
            b ->
                b.maxAttempts(5)
                    .egress(
                        EgressRoutes.builder()
                            .route(TestFunctions.COUNTED, new SqsEgressSink(egressQueue))
                            .build()),
            functions);
    enqueue(MessageBuilder.forAddress(a).withValue(total.id() + ":1").build());
    enqueue(MessageBuilder.forAddress(a).withValue(total.id() + ":2").build());
    if (withRefusedRecord) {
      enqueue(MessageBuilder.forAddress(address(BIG, "b")).withValue("go").build());
    }
    for (int round = 0; round < 4; round++) {
      LambdaLikeWorker.pollOnce(queue(), runtime);
      drain(runtime);
      clock.advance(Duration.ofMinutes(3));
      runtime.sweepTimers();
      drain(runtime);
      waitForVisibility();
    }

    List<String> group = new ArrayList<>();
    for (InMemoryMessageBus.Received r : fifo.receive(10)) {
      if (r.message().groupId() != null && r.message().groupId().contains(a.id())) {
        group.add(r.message().body().substring(a.id().length() + 1));
      }
    }
    return group;
  }
}
