package dev.statekit.aws.sqs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A bus names its queue as an SQS event's {@code eventSourceARN} ends, so the runtime can take
 * ordered batches from its ingress queue only.
 */
class QueueNameTest {
  private static final SqsClient UNUSED =
      (SqsClient)
          Proxy.newProxyInstance(
              SqsClient.class.getClassLoader(),
              new Class<?>[] {SqsClient.class},
              (proxy, method, args) -> {
                throw new UnsupportedOperationException(method.getName());
              });

  private static Optional<String> nameOf(String url) {
    return new SqsMessageBus(UNUSED, url).queueName();
  }

  @Test
  void theQueueIsNamedByItsUrlsLastPart() {
    assertEquals(
        Optional.of("ingress.fifo"),
        nameOf("https://sqs.eu-west-1.amazonaws.com/123456789012/ingress.fifo"));
    assertEquals(Optional.of("in.fifo"), nameOf("http://localhost:9324/000000000000/in.fifo/"));
    assertEquals(Optional.empty(), nameOf("http://localhost:9324/"));
  }
}
