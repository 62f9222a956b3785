package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueIds;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Invariant: exactly once / the egress contract of docs/runtime.md ("Egress sinks"): a record is
 * "delivered again (with the same record id) only when the runtime cannot know that a delivery
 * finished: a process that died between the delivery and its registration's removal, or a sink that
 * took the record but failed to answer"; a sink refusing a record past SQS's 256 KiB "refuses its
 * whole call".
 *
 * <p>Schedule (no crash, no lost answer, every send answered): one message makes an address emit 12
 * small egress records and then one of 300 KB, all routed to an {@code SqsEgressSink} on a standard
 * queue. {@code SqsEgressSink.deliver} sends the first 10 as one SendMessageBatch, then checks the
 * 12th... 13th record, finds it too large and throws a refusal: its call was NOT refused whole, 10
 * records were already taken. {@code OutboxDelivery.deliverEgress} then delivers every record of
 * the call again one by one, so the standard queue holds those 10 records twice although the
 * runtime knew their first delivery finished.
 */
class RefusedEgressRepeatsDeliveredRecordsTest extends RuntimeFixture {
  static final TypeName MANY = TypeName.of("review", "many-then-big");

  /** Twelve small records, then one past SQS's 256 KiB. */
  static void manyThenBig(Context context, Message message) {
    for (int i = 0; i < 12; i++) {
      context.send(
          EgressMessageBuilder.forEgress(TestFunctions.COUNTED).withValue("r" + i).build());
    }
    context.send(
        EgressMessageBuilder.forEgress(TestFunctions.COUNTED)
            .withValue("y".repeat(300_000))
            .build());
  }

  /** A standard queue that takes everything it is given and counts each record id's sends. */
  static final class StandardQueue implements MessageBus {
    final Map<String, Integer> sendsByRecordId = new ConcurrentHashMap<>();

    @Override
    public void send(List<BusMessage> messages) {
      for (BusMessage m : messages) {
        sendsByRecordId.merge(m.attributes().get("statekit.record-id"), 1, Integer::sum);
      }
    }

    @Override
    public int maxMessageBytes() {
      return QueueIds.MAX_MESSAGE_BYTES;
    }
  }

  @Test
  void recordsTheSinkTookAreNotSentAgainWhenALaterRecordOfTheCallIsRefused() {
    StandardQueue egressQueue = new StandardQueue();
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(MANY, RefusedEgressRepeatsDeliveredRecordsTest::manyThenBig)
            .build();
    FunctionRuntime runtime =
        runtime(
            b ->
                b.egress(
                    EgressRoutes.builder()
                        .route(TestFunctions.COUNTED, new SqsEgressSink(egressQueue))
                        .build()),
            functions);
    Address a = address(MANY, "a");
    enqueue(MessageBuilder.forAddress(a).withValue("go").build());
    LambdaLikeWorker.pollOnce(queue(), runtime);
    drain(runtime);

    Map<String, Integer> repeated = new TreeMap<>();
    egressQueue.sendsByRecordId.forEach(
        (id, sends) -> {
          if (sends > 1) {
            repeated.put(id, sends);
          }
        });
    assertEquals(12, egressQueue.sendsByRecordId.size(), "the 12 small records were delivered");
    assertEquals(
        Map.of(),
        repeated,
        "records delivered twice to a standard queue without any crash or lost answer");
  }
}
