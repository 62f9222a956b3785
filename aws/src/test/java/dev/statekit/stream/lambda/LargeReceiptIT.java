package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.testing.ManualClock;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Invariants 1 and 3 (exactly once, nothing stuck) on DynamoDB. An unordered (queue) split writes
 * one receipt item per message, {@code pk = pipe#<pipeline>#rcpt#<split>#<id>}, holding in {@code
 * o} every output of that message over every key ({@code BatchFlow.receipts}, {@code
 * DynamoDbBatchStore.writeReceipts}). Nothing bounds that item: each key's share is held under
 * {@code ItemLimit}/{@code QueueItemRoom}, but a message that a flatMap fans out over many keys
 * sums every key's outputs into one item. Past DynamoDB's 400 KB item limit, the receipt's
 * BatchWriteItem is refused (ValidationException) on every try.
 *
 * <p>Schedule: one 6 KB queue message fanned out to 300 keys, each emitting a 1.5 KB output (450 KB
 * of outputs, well within every per-key limit). What breaks: the batch fails on every delivery of
 * the message (its outputs went out each time, so the sink sees them again and again) until the
 * queue's redrive moves it to the dead-letter queue; in-memory the same pipeline succeeds.
 */
@ExtendWith(RealServers.class)
class LargeReceiptIT {
  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final CollectingEgressSink out = new CollectingEgressSink();

  @Test
  void aMessageFannedOutOverManyKeysIsReceiptedOnce(DynamoDbClient dynamoDb, TestTable table) {
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "fanout",
                Pipeline.from(BatchSource.records())
                    .<String>flatMap(
                        (bytes, collector) -> {
                          for (String key : new String(bytes, StandardCharsets.UTF_8).split(",")) {
                            collector.collect(key);
                          }
                        })
                    .keyBy(key -> key)
                    .<String>process(
                        (record, context, collector) ->
                            collector.collect(record.value() + ":" + "y".repeat(1_500)))
                    .to(EgressOutput.to(out, TypeName.of("test", "out"), Types.stringType())))
            .store(new DynamoDbBatchStore(dynamoDb, table.name()))
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    pipeline.registerSplits(List.of("q"));
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      body.append(body.length() == 0 ? "" : ",").append("key-").append(i);
    }

    for (int delivery = 1; delivery <= 3; delivery++) {
      SourceBatch.Builder batch = SourceBatch.unordered("q");
      batch.add("message-1", clock.millis(), body.toString().getBytes(StandardCharsets.UTF_8));
      BatchResult result = pipeline.process(batch.build());
      assertTrue(
          result.succeeded(),
          "delivery " + delivery + " of a message with 450 KB of outputs: " + result);
    }
    assertEquals(300, new HashSet<>(out.texts()).size());
  }
}
