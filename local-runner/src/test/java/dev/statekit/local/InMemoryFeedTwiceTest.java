package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statekit.examples.fraud.FraudCheck;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A scenario may feed a pipeline more than once ({@code ScenarioContext.feed}): on servers each
 * feed puts its records on the stream, where they get sequence numbers after those before, and
 * every record is applied. In memory each feed hands its records over as the same shard, numbered
 * from 1 again.
 */
class InMemoryFeedTwiceTest {
  private final InMemoryApp app;

  InMemoryFeedTwiceTest() throws java.io.IOException {
    app = new InMemoryApp(new BackendOptions().template(), Map.of());
  }

  @AfterEach
  void stop() {
    app.close();
  }

  @Test
  void aSecondFeedOfNewRecordsIsAppliedNotTakenForRepeats() {
    long start = Instant.now().truncatedTo(ChronoUnit.HOURS).toEpochMilli();
    app.feed(FraudCheck.NAME, List.of(transaction("first", start)));
    app.feed(FraudCheck.NAME, List.of(transaction("second", start + 60_000)));

    JsonNode pipeline = app.console().pipelines().get("pipelines").get(0);
    assertEquals(
        2,
        pipeline.get("records").asInt(),
        "both transactions applied, as two feeds on a stream would be: " + pipeline);
    assertEquals(0, pipeline.get("repeats").asInt(), "neither taken for a repeat: " + pipeline);
  }

  private static byte[] transaction(String id, long time) {
    return ("{\"id\":\""
            + id
            + "\",\"card\":\"4000-0000-0000-0001\",\"amountCents\":500,\"merchant\":\"cafe\","
            + "\"country\":\"FR\",\"time\":"
            + time
            + "}")
        .getBytes(StandardCharsets.UTF_8);
  }
}
