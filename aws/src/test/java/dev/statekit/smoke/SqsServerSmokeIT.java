package dev.statekit.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestQueue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/** The SQS API server behaves as the kit relies on: FIFO order per group and deduplication. */
@ExtendWith(RealServers.class)
class SqsServerSmokeIT {

  @Test
  void fifoQueueKeepsGroupOrderAndDropsDuplicates(SqsClient sqs, TestQueue queue) {
    send(sqs, queue, "ns/counter/a", "a-1", "first");
    send(sqs, queue, "ns/counter/b", "b-1", "other group");
    send(sqs, queue, "ns/counter/a", "a-2", "second");
    send(sqs, queue, "ns/counter/a", "a-1", "first again, same deduplication id");

    List<Message> received = new ArrayList<>();
    for (int polls = 0; polls < 10 && received.size() < 3; polls++) {
      List<Message> batch =
          sqs.receiveMessage(
                  b ->
                      b.queueUrl(queue.url())
                          .maxNumberOfMessages(10)
                          .waitTimeSeconds(1)
                          .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
              .messages();
      received.addAll(batch);
      for (Message message : batch) {
        sqs.deleteMessage(b -> b.queueUrl(queue.url()).receiptHandle(message.receiptHandle()));
      }
    }

    List<String> groupA =
        received.stream()
            .filter(m -> "ns/counter/a".equals(groupId(m)))
            .map(Message::body)
            .toList();
    assertEquals(List.of("first", "second"), groupA, "group order kept, duplicate dropped");
    assertEquals(3, received.size());
    assertTrue(
        received.stream()
            .allMatch(m -> m.attributes().containsKey(MessageSystemAttributeName.SEQUENCE_NUMBER)),
        "FIFO messages carry a sequence number");
  }

  private static void send(
      SqsClient sqs, TestQueue queue, String group, String dedup, String body) {
    sqs.sendMessage(
        b ->
            b.queueUrl(queue.url())
                .messageGroupId(group)
                .messageDeduplicationId(dedup)
                .messageBody(body));
  }

  private static String groupId(Message message) {
    return message.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
  }
}
