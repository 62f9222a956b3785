package dev.statekit.runtime;

import static dev.statekit.json.ClassLoadLog.MAPPER_BUILT;
import static dev.statekit.json.ClassLoadLog.NODE_MAPPER_BUILT;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.json.ClassLoadLog;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cold start's first envelope, in a fresh JVM: reading it (a direct invoke, a call, a queue
 * message, a JSON object as the value of a JSON type), the messages a function sends on, a message
 * dead-lettered and the answers must not build Jackson's {@code ObjectMapper} nor the internal
 * mapper {@code JsonNode.toString()} builds: together they cost the first envelope a few hundred
 * milliseconds of class loading. The class loading log is the evidence.
 */
class EnvelopesBuildNoMapperTest {
  @Test
  void envelopesInAndOutBuildNoMapper() throws Exception {
    String log = ClassLoadLog.of(Envelopes.class.getName());

    assertTrue(log.contains("ENVELOPES DONE"), log);
    assertFalse(log.contains(MAPPER_BUILT), "an envelope built an ObjectMapper");
    assertFalse(log.contains(NODE_MAPPER_BUILT), "an envelope was written with toString()");
  }

  @Test
  void theMarkersAreWhatTheMappersLoad() throws Exception {
    // Without this, a renamed Jackson class would let the test above pass whatever happens.
    String log = ClassLoadLog.of(BuildBoth.class.getName());

    assertTrue(log.contains(MAPPER_BUILT), MAPPER_BUILT + "is not what a built mapper loads");
    assertTrue(log.contains(NODE_MAPPER_BUILT), NODE_MAPPER_BUILT + "is not what toString loads");
  }

  /** The envelope paths of a runtime on the in-memory store and queues. */
  static final class Envelopes {
    private static final TypeName RELAY = TypeName.of("t", "relay");
    private static final TypeName SINK = TypeName.of("t", "sink");

    public static void main(String[] args) {
      Clock clock = Clock.systemUTC();
      InMemoryMessageBus queue = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
      InMemoryMessageBus deadLetters = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
      FunctionRuntime runtime =
          FunctionRuntime.builder(
                  StatefulFunctions.builder()
                      .withFunction(
                          RELAY,
                          (context, message) ->
                              context.send(
                                  MessageBuilder.forAddress(SINK, "s")
                                      .withValue(message.asUtf8String())
                                      .build()))
                      .withFunction(SINK, (context, message) -> {})
                      .build())
              .store(new InMemoryFunctionStore())
              .queue(queue)
              .deadLetters(deadLetters)
              .build();
      String relay =
          "{\"target\":\"t/relay/a\",\"typename\":\"io.statefun.types/string\",\"value\":\"hi\"}";
      runtime.invokeJson(relay.getBytes(StandardCharsets.UTF_8));
      runtime.invokeJson(
          ("{\"target\":\"t/sink/b\",\"typename\":\"shop/add-item\","
                  + "\"value\":{\"sku\":\"x\",\"quantity\":2},\"call\":true}")
              .getBytes(StandardCharsets.UTF_8));
      runtime.invokeJson(("[" + relay + "," + relay + "]").getBytes(StandardCharsets.UTF_8));
      runtime.processQueueBatch(
          List.of(
              new QueueMessage("m-1", relay, "t/relay/a", "18889000000000000001", 1),
              // No function is t/nobody: dead-lettered, with the message id as its key.
              new QueueMessage(
                  "m-2",
                  "{\"target\":\"t/nobody/a\",\"typename\":\"io.statefun.types/string\","
                      + "\"value\":\"x\"}",
                  "t/nobody/a",
                  "18889000000000000002",
                  1)));
      if (queue.size() == 0 || deadLetters.size() != 1) {
        throw new IllegalStateException(
            "the paths were not all taken: "
                + queue.size()
                + " queued, "
                + deadLetters.size()
                + " dead-lettered");
      }
      System.out.println("ENVELOPES DONE");
    }
  }

  /** Builds both mappers, to show what the markers catch. */
  static final class BuildBoth {
    public static void main(String[] args) {
      new com.fasterxml.jackson.databind.ObjectMapper();
      System.out.println(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
    }
  }
}
