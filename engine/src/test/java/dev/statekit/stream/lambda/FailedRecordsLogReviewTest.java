package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.QueueRecord;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.telemetry.LogEvent;
import dev.statekit.telemetry.LogLevel;
import dev.statekit.telemetry.LogOutput;
import dev.statekit.telemetry.Telemetry;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The consumers' log of failed records ({@link FailedRecordsLog}) when a batch's records fail for
 * more than one reason: one message that really failed, and another that only comes again later
 * with nothing failed (a hot key at its share of its item).
 */
class FailedRecordsLogReviewTest {
  private final CollectingEgressSink results = new CollectingEgressSink();
  private final ManualClock clock = new ManualClock(1_000_000);

  /**
   * A message "customer,lines" is an order of many lines, each a keyed record of one hot key (a
   * running count); a message "poison..." cannot be read.
   */
  private BatchPipeline lines() {
    Pipeline counts =
        Pipeline.from(BatchSource.records())
            .flatMap(
                (byte[] bytes, dev.statekit.stream.Collector<String> out) -> {
                  String text = new String(bytes, StandardCharsets.UTF_8);
                  if (text.startsWith("poison")) {
                    throw new IllegalArgumentException("cannot read " + text);
                  }
                  String[] parts = text.split(",");
                  for (int i = 0; i < Integer.parseInt(parts[1]); i++) {
                    out.collect(parts[0]);
                  }
                })
            .map(customer -> "1")
            .keyBy(one -> "hot")
            .reduce((a, b) -> Long.toString(Long.parseLong(a) + Long.parseLong(b)), Serdes.string())
            .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
    return BatchPipeline.builder("lines", counts)
        .store(new InMemoryBatchStore(clock))
        .clock(clock)
        .batchTimeout(Duration.ofMinutes(1))
        .build();
  }

  private static QueueRecord message(String id, String body) {
    return new QueueRecord("orders", id, body, Map.of("SentTimestamp", "1000000"), Map.of());
  }

  /**
   * m-poison fails in the stateless stage (its error is the batch's failure); then m-big fills the
   * hot key's share, and m-small is handed back by the keyed pass with "nothing failed". The hand
   * back overwrote the batch's failure, so the consumer's log took the whole batch for records that
   * only wait: m-poison's error went to debug level, where nobody sees it, and the message went
   * back (on to the dead-letter queue) with no word of why, which FailedRecordsLog exists to give.
   */
  @Test
  void aRealFailureIsLoggedAsAWarningThoughAnotherRecordOfTheBatchOnlyWaits() throws Exception {
    BatchPipeline pipeline = lines();
    List<LogEvent> heard = Collections.synchronizedList(new ArrayList<>());

    BatchOutcome outcome;
    try (Telemetry.Restore route = LogOutput.route("dev.statekit", heard::add)) {
      outcome =
          pipeline
              .queueConsumer()
              .accept(
                  List.of(
                      message("m-poison", "poison-1"),
                      message("m-big", "c,3000"),
                      message("m-small", "c,1")));
    }

    assertEquals(List.of("m-poison", "m-small"), outcome.failedItemIds());
    List<String> warnings =
        heard.stream()
            .filter(e -> e.level().compareTo(LogLevel.WARN) >= 0)
            .map(LogEvent::message)
            .toList();
    assertTrue(
        warnings.stream().anyMatch(w -> w.contains("cannot read poison-1")),
        "m-poison's error is logged as a warning; heard: "
            + heard.stream().map(e -> e.level() + " " + e.message()).toList());
  }
}
