package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.ChangeRecord;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB stream's shard is in order, and on a partial batch failure Lambda checkpoints at the
 * lowest failed sequence number and hands every record from it over again, in the shard's order
 * (AWS: "Lambda uses the record with the lowest sequence number as the checkpoint ... retries all
 * records starting from that checkpoint"). A change that fails once (a lookup that timed out) must
 * count in its window when it comes again, as it would had it not failed, as a Kinesis record does
 * (the records after a failed one are not applied) and as a FIFO message does behind its group
 * ({@code FailedMessageWatermarkTest}).
 */
class ChangeRetryLatenessTest {
  private static final AtomicBoolean FAIL_ONCE = new AtomicBoolean();

  private final CollectingEgressSink results = new CollectingEgressSink();
  private final InMemoryBatchStore store = new InMemoryBatchStore();
  private final ManualClock clock = new ManualClock(1_000_000);

  private BatchPipeline perCardMinute() {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            // event time: the change's ApproximateCreationDateTime (the record's timestamp)
            .withWatermarks(WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ofSeconds(1)))
            .<String>process(
                (record, out) -> {
                  // e.g. an enrichment lookup that times out once
                  if (record.value().contains("card#a") && FAIL_ONCE.getAndSet(false)) {
                    throw new IllegalStateException("lookup timed out");
                  }
                  out.collect(record.value().contains("card#a") ? "card#a" : "card#b");
                })
            .keyBy(card -> card)
            .window(Windows.tumbling(Duration.ofMinutes(1)))
            .aggregate(
                AggregateFunction.<String>count(),
                Serdes.longs(),
                (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                    key + "@" + w.start() + "=" + n)
            .to(EgressOutput.to(results, TypeName.of("test", "changes"), Types.stringType()));
    return BatchPipeline.builder("changes", plan)
        .store(store)
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  private static ChangeRecord insert(String seq, String card, long epochSecond) {
    Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS(card));
    return new ChangeRecord(
        "cards", "e" + seq, "INSERT", seq, Instant.ofEpochSecond(epochSecond), key, key, Map.of());
  }

  /** The same shard without the failure: both changes count (the control). */
  @Test
  void withoutTheFailureBothChangesCount() throws Exception {
    BatchPipeline pipeline = perCardMinute();
    FAIL_ONCE.set(false);
    pipeline
        .dynamoDbConsumer()
        .accept(
            List.of(
                insert("100", "card#a", 59),
                insert("200", "card#b", 65),
                insert("300", "card#b", 200)));
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofMinutes(2));
      pipeline.tick();
    }
    assertEquals(
        List.of("card#a@0=1", "card#b@60000=1"),
        results.texts().stream().filter(t -> !t.contains("@180000")).sorted().toList());
  }

  @Test
  void aChangeThatFailedOnceCountsInItsWindowWhenLambdaHandsItOverAgain() throws Exception {
    BatchPipeline pipeline = perCardMinute();
    // One shard, in order: card a changed at 59 s (window [0, 60 s)), card b at 65 s.
    ChangeRecord a = insert("100", "card#a", 59);
    ChangeRecord b = insert("200", "card#b", 65);

    FAIL_ONCE.set(true);
    BatchOutcome first = pipeline.dynamoDbConsumer().accept(List.of(a, b));
    assertEquals(
        List.of("100", "200"),
        first.failedItemIds(),
        "a's lookup timed out: a and the change after it go back, unapplied");

    // Lambda checkpoints before the lowest failed sequence number and hands the shard over again
    // from there, in order: a, then b (and what came since).
    ChangeRecord c = insert("300", "card#b", 200);
    BatchOutcome second = pipeline.dynamoDbConsumer().accept(List.of(a, b, c));
    assertEquals(List.of(), second.failedItemIds());

    // Event time moves on; the tick fires the windows.
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofMinutes(2));
      pipeline.tick();
    }
    assertEquals(
        List.of("card#a@0=1", "card#b@60000=1"),
        results.texts().stream().filter(t -> !t.contains("@180000")).sorted().toList(),
        "a changed at 59 s and came again before b in its shard's order, as the first time: a"
            + " transient failure must not change the result (all: "
            + results.texts()
            + ")");
  }
}
