package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.ChangeRecord;
import dev.statekit.stream.Pipeline;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB stream (NEW_AND_OLD_IMAGES) feeding a keyed step that forwards each change, old and
 * new image (change data capture to a Kinesis stream, which takes 1 MiB). A 300 KB item that was
 * 200 KB makes a 500 KB result, too large for its key's item to keep until it is delivered. With a
 * place for refused outputs ({@code refusedOutputsTo}), a Kinesis shard sets such a result aside as
 * a {@link RefusedOutput} stand-in and goes on; a queue message "fails alone, and the queue's
 * redrive policy keeps it" (docs/pipelines.md). A DynamoDB stream has no redrive policy: Lambda
 * checkpoints before the lowest failed sequence number and hands the shard over again from it,
 * until the record expires (24 hours; MaximumRetryAttempts is unlimited by default) or
 * MaximumRetryAttempts, and the on-failure record's replay through {@code process} fails the same
 * way. So the change must not fail on every delivery.
 */
class LargeChangeResultTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final CollectingEgressSink projection = new CollectingEgressSink();
  private final CollectingEgressSink place = new CollectingEgressSink();

  private BatchPipeline pipeline() {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(
                bytes -> {
                  try {
                    return JSON.readTree(bytes);
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                })
            .keyBy((JsonNode change) -> change.path("keys").path("pk").asText())
            .<String>process(
                (record, context, out) -> {
                  // the change, old and new image, forwarded (e.g. to a Kinesis stream, 1 MiB)
                  out.collect(record.value().toString());
                })
            .to(EgressOutput.to(projection, TypeName.of("test", "projection"), Types.stringType()));
    return BatchPipeline.builder("projection", plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .refusedOutputsTo(place)
        .build();
  }

  private static ChangeRecord change(String seq, String pk, String body, String oldBody) {
    Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS(pk));
    return new ChangeRecord(
        "documents",
        "e" + seq,
        "MODIFY",
        seq,
        Instant.ofEpochSecond(1_700_000_000L),
        key,
        Map.of("pk", AttributeValue.fromS(pk), "body", AttributeValue.fromS(body)),
        Map.of("pk", AttributeValue.fromS(pk), "body", AttributeValue.fromS(oldBody)));
  }

  /** The control: the same change on a Kinesis shard is set aside as a stand-in, and goes on. */
  @Test
  void onAShardTheSameResultIsSetAsideAndTheShardGoesOn() {
    BatchPipeline pipeline = pipeline();
    ChangeRecord large = change("100", "doc#1", "x".repeat(300_000), "y".repeat(200_000));
    BatchResult result =
        pipeline.process(
            SourceBatch.ordered("changes/shardId-000000000000")
                .add("100", 0, ChangeJson.bytes(large))
                .build());
    assertEquals(List.of(), result.failedOffsets());
    assertEquals(1, place.records().size(), "one stand-in");
  }

  @Test
  void aChangeWhoseResultNoItemCanKeepDoesNotHoldTheStreamOnEveryDelivery() throws Exception {
    BatchPipeline pipeline = pipeline();
    // A 300 KB item that was 200 KB (NEW_AND_OLD_IMAGES): its change, 500 KB, is a result no item
    // can keep.
    ChangeRecord large = change("100", "doc#1", "x".repeat(300_000), "y".repeat(200_000));
    ChangeRecord small = change("200", "doc#2", "short", "old");

    List<List<String>> answers = new ArrayList<>();
    // Lambda hands the shard over again from the lowest failed sequence number, each time.
    for (int delivery = 0; delivery < 5; delivery++) {
      BatchOutcome outcome = pipeline.dynamoDbConsumer().accept(List.of(large, small));
      answers.add(outcome.failedItemIds());
      if (outcome.failedItemIds().isEmpty()) {
        break;
      }
      clock.advance(Duration.ofSeconds(30));
    }
    assertEquals(
        List.of(),
        answers.get(answers.size() - 1),
        "the change failed on every delivery ("
            + answers
            + "): the table's stream shard stays at it until the record expires, and replaying it"
            + " from the on-failure destination fails the same way; stand-ins set aside: "
            + place.records().size());
  }
}
