package dev.statekit.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.testservers.RealServers;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * The SQS server takes only the characters SendMessage documents for a body and a string attribute
 * ({@code #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF}) and refuses a message
 * holding any other (SQS: InvalidMessageContents), as the in-memory queues do: what every body and
 * attribute StateKit writes must respect. The same characters written as JSON escapes are taken. A
 * body past the queue's size limit (256 KiB by default) is refused too.
 */
@ExtendWith(RealServers.class)
class SqsRefusedCharactersIT {

  @ParameterizedTest
  @ValueSource(ints = {0x0, 0x1, 0x1B, 0x1F, 0xD800, 0xDFFF, 0xFFFE, 0xFFFF})
  void aBodyHoldingACharacterOutsideSqsSetIsRefused(int c, SqsClient sqs) {
    String url = queue(sqs);
    assertThrows(SqsException.class, () -> send(sqs, url, "a" + (char) c + "b", Map.of()));
  }

  @ParameterizedTest
  @ValueSource(ints = {0x1, 0xFFFE})
  void anAttributeHoldingACharacterOutsideSqsSetIsRefused(int c, SqsClient sqs) {
    String url = queue(sqs);
    assertThrows(SqsException.class, () -> send(sqs, url, "ok", Map.of("a", "x" + (char) c + "y")));
  }

  @Test
  void aBodyPastTheQueuesLimitIsRefused(SqsClient sqs) {
    String url = queue(sqs);
    send(sqs, url, "x".repeat(262_144), Map.of());
    assertThrows(SqsException.class, () -> send(sqs, url, "x".repeat(262_145), Map.of()));
  }

  @Test
  void allowedCharactersAndJsonEscapesAreTaken(SqsClient sqs) {
    String url = queue(sqs);
    String body = "{\"v\": \"\\ufffe\\u0001\\ud800\"}\t\n\r \u007F\uD7FF\uE000\uFFFD\uD83D\uDE00";

    send(sqs, url, body, Map.of("a", body));

    Message got =
        sqs.receiveMessage(b -> b.queueUrl(url).messageAttributeNames("All")).messages().get(0);
    assertEquals(body, got.body());
    assertEquals(body, got.messageAttributes().get("a").stringValue());
  }

  private static String queue(SqsClient sqs) {
    return sqs.createQueue(b -> b.queueName("chars-" + UUID.randomUUID())).queueUrl();
  }

  private static void send(SqsClient sqs, String url, String body, Map<String, String> strings) {
    Map<String, MessageAttributeValue> attributes = new HashMap<>();
    strings.forEach(
        (name, value) ->
            attributes.put(
                name,
                MessageAttributeValue.builder().dataType("String").stringValue(value).build()));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageAttributes(attributes));
  }
}
