package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.testservers.RealServers;
import dev.statekit.types.TypeName;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

/**
 * Limit (SQS API reference, SendMessageBatch): "the result of the action on each message is
 * reported individually"; an entry may fail (on an SSE-KMS queue KMS throttling comes as a
 * sender-fault entry, KMS.ThrottlingException, see KmsThrottledEntriesTest) while the batch's other
 * entries are sent. SqsMessageBus reports which ones failed (BusException.failedIndices), but
 * SqsEgressSink.send turns that into an EgressException naming no record, so the runtime counts
 * every record of the call undelivered and its next try sends the ones SQS already took again. On a
 * standard egress queue (no deduplication) a reader gets them twice without any crash;
 * docs/runtime.md promises a record is delivered again only when the runtime cannot know that a
 * delivery finished.
 *
 * <p>Schedule (ElasticMQ standard queue, no crash): one message makes an address emit "one" and
 * "two" to an SqsEgressSink; while KMS is throttled, every SendMessageBatch fails the entry "one"
 * and sends "two"; after the bus's attempts the delivery fails; throttling ends; the sweep delivers
 * the outbox again. Expected: "two" once on the queue.
 */
@ExtendWith(RealServers.class)
class SqsEgressPartialFailureRepeatsSentRecordsIT extends RuntimeFixture {
  static final TypeName TWO_RECORDS = TypeName.of("review", "two-sqs-records");

  static void twoRecords(Context context, dev.statekit.function.Message message) {
    context.send(EgressMessageBuilder.forEgress(TestFunctions.COUNTED).withValue("one").build());
    context.send(EgressMessageBuilder.forEgress(TestFunctions.COUNTED).withValue("two").build());
  }

  @Test
  void aRecordSentBesideAFailedEntryIsNotSentAgain(SqsClient sqs) {
    String url =
        sqs.createQueue(
                b -> b.queueName("egress-std-" + UUID.randomUUID().toString().substring(0, 8)))
            .queueUrl();
    AtomicBoolean throttled = new AtomicBoolean(true);
    RetryPolicy fast =
        RetryPolicy.builder()
            .maxAttempts(3)
            .baseDelay(Duration.ZERO)
            .maxDelay(Duration.ZERO)
            .build();
    FunctionRuntime runtime =
        runtime(
            b ->
                b.maxAttempts(5)
                    .egress(
                        EgressRoutes.builder()
                            .route(
                                TestFunctions.COUNTED,
                                new SqsEgressSink(
                                    new SqsMessageBus(failingOne(sqs, throttled), url, fast)))
                            .build()),
            StatefulFunctions.builder()
                .withFunction(TWO_RECORDS, SqsEgressPartialFailureRepeatsSentRecordsIT::twoRecords)
                .build());
    Address a = address(TWO_RECORDS, "a");
    enqueue(MessageBuilder.forAddress(a).withValue("go").build());
    LambdaLikeWorker.pollOnce(queue(), runtime);
    throttled.set(false);
    for (int round = 0; round < 3; round++) {
      clock.advance(Duration.ofMinutes(3));
      runtime.sweepTimers();
      drain(runtime);
    }

    assertEquals(0, outboxesLeftLater(runtime), "the outbox is delivered once KMS recovers");
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      for (software.amazon.awssdk.services.sqs.model.Message m :
          sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(60))
              .messages()) {
        bodies.add(m.body());
      }
    }
    assertEquals(
        1,
        bodies.stream().filter("two"::equals).count(),
        "copies of \"two\" on the standard egress queue, taken by SQS beside the failed \"one\";"
            + " the queue holds "
            + bodies);
  }

  /**
   * While {@code throttled}, fails the entry whose body is "one" as KMS throttling; sends the rest.
   */
  private static SqsClient failingOne(SqsClient real, AtomicBoolean throttled) {
    return (SqsClient)
        Proxy.newProxyInstance(
            SqsClient.class.getClassLoader(),
            new Class<?>[] {SqsClient.class},
            (proxy, method, args) -> {
              if (method.getName().equals("sendMessageBatch") && args != null && args.length == 1) {
                SendMessageBatchRequest request =
                    args[0] instanceof SendMessageBatchRequest r
                        ? r
                        : SendMessageBatchRequest.builder()
                            .applyMutation(consumer(args[0]))
                            .build();
                if (!throttled.get()) {
                  return real.sendMessageBatch(request);
                }
                List<BatchResultErrorEntry> failed = new ArrayList<>();
                List<SendMessageBatchRequestEntry> rest = new ArrayList<>();
                for (SendMessageBatchRequestEntry entry : request.entries()) {
                  if (entry.messageBody().equals("one")) {
                    failed.add(
                        BatchResultErrorEntry.builder()
                            .id(entry.id())
                            .code("KMS.ThrottlingException")
                            .message("Rate exceeded (simulated)")
                            .senderFault(true)
                            .build());
                  } else {
                    rest.add(entry);
                  }
                }
                List<SendMessageBatchResultEntry> ok = new ArrayList<>();
                if (!rest.isEmpty()) {
                  SendMessageBatchResponse sent =
                      real.sendMessageBatch(request.toBuilder().entries(rest).build());
                  ok.addAll(sent.successful());
                  failed.addAll(sent.failed());
                }
                return SendMessageBatchResponse.builder().successful(ok).failed(failed).build();
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @SuppressWarnings("unchecked")
  private static Consumer<SendMessageBatchRequest.Builder> consumer(Object consumer) {
    return (Consumer<SendMessageBatchRequest.Builder>) consumer;
  }
}
