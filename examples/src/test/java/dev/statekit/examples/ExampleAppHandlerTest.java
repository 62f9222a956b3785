package dev.statekit.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.application.InMemoryApplication;
import dev.statekit.entry.InvocationError;
import dev.statekit.examples.shop.Inventory;
import dev.statekit.examples.shop.InventoryState;
import dev.statekit.function.Address;
import dev.statekit.handlers.StateKitHandler;
import dev.statekit.runtime.store.StoredValue;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The one handler with the repository's event fixtures (events/), wired in memory. */
class ExampleAppHandlerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EVENTS = Path.of("..", "events");

  private final InMemoryApplication app =
      ExampleApp.inMemory(Duration.ofMinutes(15), Duration.ofMinutes(1), Clock.systemUTC());
  private final StateKitHandler handler = new StateKitHandler(app.entryPoint());

  @Test
  void aFunctionUrlEventIsAnsweredWithTheStateFunResponse() throws Exception {
    JsonNode answer = invoke("statefun-function-url.json");

    assertEquals(200, answer.get("statusCode").asInt());
    assertEquals("application/octet-stream", answer.at("/headers/Content-Type").asText());
  }

  @Test
  void envelopesAreAppliedByTheRuntime() throws Exception {
    assertEquals("applied", invoke("envelopes-batch.json").at("/results/0/status").asText());
    assertEquals("applied", invoke("envelope-add-item.json").get("status").asText());
    assertEquals("duplicate", invoke("envelope-add-item.json").get("status").asText(), "same id");

    InventoryState book = stock("book");
    assertEquals(10, book.available());
  }

  @Test
  void aCallAddingAnItemAnswersTheCartAndTheReservationOnceHoweverOftenItComes() throws Exception {
    JsonNode first = invoke("call-add-item.json");
    JsonNode again = invoke("call-add-item.json");

    assertEquals("applied", first.get("status").asText(), first.toString());
    assertEquals("shop/cart-reply", first.at("/reply/typename").asText());
    assertEquals("ada-1", first.at("/reply/value/reservation/reservationId").asText());
    assertEquals("book", first.at("/reply/value/lines/0/sku").asText());
    assertTrue(again.get("repeat").asBoolean());
    assertEquals(first.get("reply"), again.get("reply"), "the same reply, applied once");
    assertEquals(1, again.at("/reply/value/lines").size());
  }

  @Test
  void theFunctionUrlAnswersCallsOnItsCallPath() throws Exception {
    JsonNode answer = invoke("function-url-call.json");

    assertEquals(200, answer.get("statusCode").asInt(), answer.toString());
    assertEquals("application/json", answer.at("/headers/Content-Type").asText());
    JsonNode body = JSON.readTree(answer.get("body").asText());
    assertEquals(
        "bob-1", body.at("/reply/value/reservation/reservationId").asText(), body::toString);
  }

  @Test
  void anSqsBatchIsAnsweredWithItsFailures() throws Exception {
    JsonNode answer = invoke("sqs-ingress.json");

    assertEquals("{\"batchItemFailures\":[]}", answer.toString());
    assertEquals(10, stock("book").available());
  }

  @Test
  void theScheduleSweepsTimers() throws Exception {
    JsonNode answer = invoke("schedule-tick.json");

    assertEquals(0, answer.at("/tasks/timers/sent").asInt());
    assertEquals(0, answer.at("/tasks/timers/failed").asInt());
    assertTrue(answer.at("/tasks/fraud-check-tick").has("watermark"), answer.toString());
  }

  @Test
  void aKinesisBatchGoesThroughTheFraudCheck() throws Exception {
    assertEquals("{\"batchItemFailures\":[]}", invoke("kinesis-transactions.json").toString());
    assertEquals(
        "{\"batchItemFailures\":[]}",
        invoke("kinesis-transactions.json").toString(),
        "a repeated batch is answered the same");
  }

  @Test
  void somethingElseIsRefusedNamingTheAcceptedShapes() {
    var e = assertThrows(InvocationError.class, () -> invokeBytes("{\"name\":\"Ada\"}".getBytes()));
    assertTrue(e.getMessage().startsWith("UnrecognizedPayloadException: "), e.getMessage());
    assertTrue(e.getMessage().contains("an SQS event"), e.getMessage());
  }

  @Test
  void primingRunsNoFunctionAndSendsNothing() throws Exception {
    handler.beforeCheckpoint(null);

    assertEquals(0, app.ingress().size());
    assertEquals(0, app.store().reload(Address.of(Inventory.TYPE, "book")).version());
  }

  private InventoryState stock(String sku) {
    StoredValue value =
        app.store().reload(Address.of(Inventory.TYPE, sku)).values().get(Inventory.STATE.name());
    return Inventory.STATE.type().deserialize(value.bytes());
  }

  private JsonNode invoke(String fixture) throws IOException {
    return JSON.readTree(invokeBytes(Files.readAllBytes(EVENTS.resolve(fixture))));
  }

  private byte[] invokeBytes(byte[] payload) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(payload), out, null);
    return out.toByteArray();
  }
}
