package dev.statekit.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.application.InMemoryApplication;
import dev.statekit.examples.fraud.Card;
import dev.statekit.examples.fraud.CardBlock;
import dev.statekit.examples.fraud.Transaction;
import dev.statekit.function.Address;
import dev.statekit.runtime.store.StoredValue;
import dev.statekit.testing.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fraud check as Lambda runs it, wired in memory: Kinesis events into the entry point, alerts
 * applied to the card functions once, the last windows fired by the tick once the shard is idle.
 */
class FraudThroughTheEntryPointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00Z
  private static final long MINUTE = 60_000;

  private final ManualClock clock = new ManualClock(T0 + 2 * 60 * MINUTE);
  private final InMemoryApplication app =
      ExampleApp.inMemory(Duration.ofMinutes(15), Duration.ofMinutes(1), clock);

  @Test
  void aBurstBlocksTheCardOnceHoweverOftenTheBatchComes() throws Exception {
    List<Transaction> burst = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      burst.add(new Transaction("s" + i, "stolen", 1_000, "shop", "FR", T0 + i * 5_000));
    }
    // A later payment on another card moves the watermark past every window holding the burst.
    burst.add(new Transaction("n", "normal", 500, "cafe", "FR", T0 + 30 * MINUTE));
    byte[] event = kinesisEvent("shardId-000000000000", burst);

    assertEquals("{\"batchItemFailures\":[]}", invoke(event));
    assertEquals(10, block("stolen").alerts(), "one alert per window of 10 holding the burst");
    assertEquals("6 transactions in 10 minutes (limit 5)", block("stolen").reason());

    assertEquals("{\"batchItemFailures\":[]}", invoke(event));
    assertEquals(10, block("stolen").alerts(), "the repeated batch applied nothing twice");
    assertEquals(null, block("normal"));
  }

  @Test
  void theTickFiresTheLastWindowsOnceTheShardIsIdle() throws Exception {
    List<Transaction> trip = new ArrayList<>();
    String[] countries = {"FR", "DE", "US"};
    for (int i = 0; i < 3; i++) {
      trip.add(new Transaction("t" + i, "travel", 100, "hotel", countries[i], T0 + i * MINUTE));
    }
    invoke(kinesisEvent("shardId-000000000000", trip));
    assertEquals(null, block("travel"), "the watermark is 30 s behind the last payment");

    JsonNode early = JSON.readTree(tick());
    assertEquals(
        T0 + 2 * MINUTE - 30_001,
        early.at("/tasks/fraud-check-tick/watermark").asLong(),
        "not idle yet: the watermark stays where the shard's batch left it " + early);
    assertEquals(null, block("travel"));

    clock.advance(Duration.ofMinutes(2)); // the shard is idle: the tick moves it on
    tick();
    clock.advance(Duration.ofSeconds(2)); // one batch timeout later the move fires windows
    JsonNode fired = JSON.readTree(tick());

    assertTrue(fired.at("/tasks/fraud-check-tick/windowsFired").asInt() > 0, fired.toString());
    assertTrue(block("travel").reason().startsWith("3 countries"), block("travel").reason());
  }

  private CardBlock block(String card) {
    StoredValue value =
        app.store().reload(Address.of(Card.TYPE, card)).values().get(Card.BLOCK.name());
    return value == null ? null : Card.BLOCK.type().deserialize(value.bytes());
  }

  private String invoke(byte[] payload) {
    return new String(app.entryPoint().invoke(payload), StandardCharsets.UTF_8);
  }

  private byte[] tick() {
    return app.entryPoint().invoke(tickEvent());
  }

  private static byte[] tickEvent() {
    return ("{\"id\":\"tick\",\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\","
            + "\"time\":\"2026-01-01T02:00:00Z\",\"resources\":[],\"detail\":{}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] kinesisEvent(String shard, List<Transaction> transactions)
      throws Exception {
    ObjectNode event = JSON.createObjectNode();
    ArrayNode records = event.putArray("Records");
    int sequence = 0;
    for (Transaction t : transactions) {
      ObjectNode record = records.addObject();
      ObjectNode kinesis = record.putObject("kinesis");
      kinesis.put("partitionKey", t.card());
      kinesis.put("sequenceNumber", Integer.toString(++sequence));
      kinesis.put("data", Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(t)));
      kinesis.put("approximateArrivalTimestamp", t.time() / 1000.0);
      record.put("eventSource", "aws:kinesis");
      record.put("eventID", shard + ":" + sequence);
      record.put("eventSourceARN", "arn:aws:kinesis:us-east-1:000000000000:stream/transactions");
    }
    return JSON.writeValueAsBytes(event);
  }
}
