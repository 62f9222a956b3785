package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A DynamoDB Streams batch answered with {@code batchItemFailures} is retried by Lambda from the
 * LOWEST sequence number reported, with every record after it, the ones applied the first time
 * included. Each change must still take effect once.
 */
class DynamoDbStreamRetryTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String change(String card, String sequence) {
    return "{\"eventID\":\"e"
        + sequence
        + "\",\"eventName\":\"INSERT\",\"eventVersion\":\"1.1\",\"eventSource\":\"aws:dynamodb\","
        + "\"awsRegion\":\"eu-west-1\",\"dynamodb\":{\"ApproximateCreationDateTime\":1700000000,"
        + "\"Keys\":{\"card\":{\"S\":\""
        + card
        + "\"}},\"NewImage\":{\"card\":{\"S\":\""
        + card
        + "\"}},\"SequenceNumber\":\""
        + sequence
        + "\",\"SizeBytes\":20,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"},"
        + "\"eventSourceARN\":\"arn:aws:dynamodb:eu-west-1:123456789012:table/cards/stream/"
        + "2024-01-01T00:00:00.000\"}";
  }

  private static byte[] event(String... changes) {
    return ("{\"Records\":[" + String.join(",", changes) + "]}").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] invoke(PipelineHandler handler, byte[] event) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(event), out, null);
    return out.toByteArray();
  }

  @Test
  void aRetryFromTheLowestFailedSequenceNumberAppliesNoChangeTwice() throws Exception {
    CollectingEgressSink changes = new CollectingEgressSink();
    AtomicBoolean firstAttempt = new AtomicBoolean(true);
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .decode(Serdes.json(JsonNode.class))
            .map(
                c -> {
                  String card = c.path("keys").path("card").asText();
                  if (card.equals("a") && firstAttempt.get()) {
                    throw new IllegalStateException("a passing fault on card a");
                  }
                  return card;
                })
            .to(EgressOutput.to(changes, TypeName.of("test", "changes"), Types.stringType()));
    PipelineHandler handler =
        new PipelineHandler(
            BatchPipeline.builder("cards", pipeline).store(new InMemoryBatchStore()).build());
    byte[] batch =
        event(
            change("a", "111000000000000000001"),
            change("b", "111000000000000000002"),
            change("c", "111000000000000000003"));

    JsonNode first = JSON.readTree(invoke(handler, batch));
    List<String> failed = new ArrayList<>();
    first.path("batchItemFailures").forEach(f -> failed.add(f.path("itemIdentifier").asText()));
    assertEquals(
        List.of("111000000000000000001", "111000000000000000002", "111000000000000000003"),
        failed,
        "card a's change failed, and the changes after it with it (Lambda hands them over again"
            + " from the lowest anyway): "
            + first);

    // Lambda resumes the stream at the lowest failed sequence number: all three come again.
    firstAttempt.set(false);
    JsonNode second = JSON.readTree(invoke(handler, batch));
    assertEquals(0, second.path("batchItemFailures").size(), "" + second);

    assertEquals(
        List.of("a", "b", "c"),
        changes.texts().stream().sorted().toList(),
        "each change's output once");
  }
}
