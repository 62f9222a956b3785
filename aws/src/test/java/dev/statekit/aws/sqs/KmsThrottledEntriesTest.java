package dev.statekit.aws.sqs;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.bus.BusMessage;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

/**
 * On an SSE-KMS queue SQS answers KMS throttling as a sender fault: a batch entry failed so is sent
 * again under the retry policy, as a throttled call is. Before, an entry was judged by its sender
 * fault alone and refused for good at once, so each send counted as a failed try of its outbox or
 * timer, and throttling that lasted a few sweeps dead-lettered valid messages.
 */
class KmsThrottledEntriesTest {
  @Test
  void anEntryThrottledByKmsIsSentAgainLikeAThrottledCall() {
    AtomicInteger calls = new AtomicInteger();
    List<String> sent = new ArrayList<>();
    SqsClient sqs =
        (SqsClient)
            Proxy.newProxyInstance(
                SqsClient.class.getClassLoader(),
                new Class<?>[] {SqsClient.class},
                (proxy, method, args) -> {
                  if (!method.getName().equals("sendMessageBatch")) {
                    throw new UnsupportedOperationException(method.getName());
                  }
                  SendMessageBatchRequest request =
                      args[0] instanceof SendMessageBatchRequest r
                          ? r
                          : SendMessageBatchRequest.builder()
                              .applyMutation(consumer(args[0]))
                              .build();
                  SendMessageBatchResponse.Builder response = SendMessageBatchResponse.builder();
                  List<BatchResultErrorEntry> failed = new ArrayList<>();
                  List<SendMessageBatchResultEntry> ok = new ArrayList<>();
                  for (SendMessageBatchRequestEntry entry : request.entries()) {
                    if (calls.get() == 0) {
                      failed.add(
                          BatchResultErrorEntry.builder()
                              .id(entry.id())
                              .code("KMS.ThrottlingException")
                              .message("Rate exceeded (simulated)")
                              .senderFault(true)
                              .build());
                    } else {
                      sent.add(entry.messageBody());
                      ok.add(
                          SendMessageBatchResultEntry.builder()
                              .id(entry.id())
                              .messageId("m-" + entry.id())
                              .build());
                    }
                  }
                  calls.incrementAndGet();
                  return response.failed(failed).successful(ok).build();
                });
    SqsMessageBus bus =
        new SqsMessageBus(
            sqs,
            "https://sqs.us-east-1.amazonaws.com/000000000000/q.fifo",
            RetryPolicy.builder().baseDelay(Duration.ZERO).maxDelay(Duration.ZERO).build());

    assertDoesNotThrow(() -> bus.send(List.of(new BusMessage("g", "d1", "hello"))));
    assertEquals(List.of("hello"), sent);
  }

  @SuppressWarnings("unchecked")
  private static Consumer<SendMessageBatchRequest.Builder> consumer(Object consumer) {
    return (Consumer<SendMessageBatchRequest.Builder>) consumer;
  }
}
