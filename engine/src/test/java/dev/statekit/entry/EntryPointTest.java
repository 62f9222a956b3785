package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.Deadline;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.ChangeRecord;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.protocol.PeerWire;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class EntryPointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();
  private static final StatefulFunctions COUNTER =
      StatefulFunctions.builder()
          .withFunction(
              TypeName.of("test", "counter"),
              (context, message) ->
                  context.storage().set(SEEN, context.storage().get(SEEN).orElse(0) + 1),
              SEEN)
          .build();

  private final List<String> calls = new ArrayList<>();

  @Test
  void aToFunctionGoesToTheFunctions() {
    EntryPoint entry = EntryPoint.builder().functions(COUNTER).build();
    byte[] request =
        PeerWire.request("test", "counter", "a")
            .state("seen")
            .message(PeerWire.string("x"))
            .bytes();

    var answer = PeerWire.parse(entry.invoke(request));

    assertEquals(
        1,
        PeerWire.value(
            org.apache.flink.statefun.sdk.java.types.Types.integerType(),
            answer.getInvocationResult().getStateMutations(0).getStateValue()));
    assertEquals(PayloadShape.TO_FUNCTION, EntryPoint.shapeOf(request));
  }

  @Test
  void anHttpEventIsAnsweredWithTheHttpResponseShape() throws Exception {
    EntryPoint entry = EntryPoint.builder().functions(COUNTER).build();
    byte[] request =
        PeerWire.request("test", "counter", "a")
            .state("seen")
            .message(PeerWire.string("x"))
            .bytes();
    String event =
        "{\"version\":\"2.0\",\"rawPath\":\"/test/counter\",\"headers\":{\"Content-Type\":"
            + "\"application/octet-stream\"},\"requestContext\":{\"http\":{\"method\":\"POST\"}},"
            + "\"body\":\""
            + Base64.getEncoder().encodeToString(request)
            + "\",\"isBase64Encoded\":true}";

    JsonNode answer = JSON.readTree(entry.invoke(utf8(event)));

    assertEquals(200, answer.get("statusCode").asInt());
    assertTrue(
        PeerWire.parse(Base64.getDecoder().decode(answer.get("body").asText()))
            .hasInvocationResult());
  }

  @Test
  void envelopesGoToTheEnvelopeConsumerAsTheyCame() {
    EntryPoint entry =
        EntryPoint.builder()
            .envelopes(
                json ->
                    utf8(
                        "{\"got\":"
                            + new String(json, java.nio.charset.StandardCharsets.UTF_8)
                            + "}"))
            .build();
    String single =
        "{\"target\":\"a/b/c\",\"typename\":\"io.statefun.types/string\",\"value\":\"hi\"}";

    assertEquals("{\"got\":" + single + "}", new String(entry.invoke(utf8(single))));
    assertEquals(
        PayloadShape.ENVELOPE_BATCH, EntryPoint.shapeOf(utf8("[" + single + "," + single + "]")));
    assertTrue(new String(entry.invoke(utf8("[" + single + "]"))).startsWith("{\"got\":["));
  }

  @Test
  void sqsMessagesAreReadAndRoutedByQueueName() throws Exception {
    List<QueueRecord> seen = new ArrayList<>();
    EntryPoint entry =
        EntryPoint.builder()
            .queue(
                "https://sqs.eu-west-1.amazonaws.com/123456789012/ingress.fifo",
                records -> {
                  seen.addAll(records);
                  return BatchOutcome.failed(List.of(records.get(1).messageId()));
                })
            .queue("other", records -> fail("other"))
            .build();

    JsonNode answer = JSON.readTree(entry.invoke(Events.sqs("ingress.fifo", "m1", "m2")));

    assertEquals("{\"batchItemFailures\":[{\"itemIdentifier\":\"m2\"}]}", answer.toString());
    QueueRecord first = seen.get(0);
    assertEquals("ingress.fifo", first.queueName());
    assertEquals("body-m1", first.body());
    assertEquals("g", first.groupId().orElseThrow());
    assertEquals("100", first.sequenceNumber().orElseThrow());
    assertEquals(2, first.receiveCount());
    assertEquals(Instant.ofEpochMilli(1700000000000L), first.sentAt().orElseThrow());
    assertEquals(Map.of("kind", "test"), first.messageAttributes());
    assertEquals(List.of(), calls);
  }

  @Test
  void aQueueNobodyConsumesIsRefusedNamingWhatIsRegistered() {
    EntryPoint entry =
        EntryPoint.builder().queue("ingress.fifo", records -> fail("ingress")).build();

    var e = assertThrows(NoRouteException.class, () -> entry.invoke(Events.sqs("elsewhere", "m1")));

    String arn = "arn:aws:sqs:eu-west-1:123456789012:elsewhere";
    assertTrue(e.getMessage().contains(arn + " is not one this entry point"), e.getMessage());
    assertTrue(e.getMessage().contains("queue(\"" + arn + "\", consumer)"), e.getMessage());
    assertTrue(e.getMessage().contains("queue ingress.fifo"), e.getMessage());
    assertEquals(List.of(), calls);
  }

  @Test
  void streamsNobodyConsumesAreRefusedNamingTheBuilderMethod() {
    EntryPoint entry =
        EntryPoint.builder().scheduled("tick", event -> 1).scheduleRule("tick").build();

    var kinesis =
        assertThrows(NoRouteException.class, () -> entry.invoke(Events.kinesis("clicks", "1")));
    assertTrue(
        kinesis
            .getMessage()
            .contains(
                "kinesisStream(\"arn:aws:kinesis:eu-west-1:123456789012:stream/clicks\","
                    + " consumer)"),
        kinesis.getMessage());
    var table = assertThrows(NoRouteException.class, () -> entry.invoke(Events.dynamoDb("orders")));
    assertTrue(
        table
            .getMessage()
            .contains("dynamoDbStream(\"arn:aws:dynamodb:eu-west-1:123456789012:table/orders/"),
        table.getMessage());
    assertTrue(
        table.getMessage().contains("scheduled tasks [tick] on schedule rule tick"),
        table.getMessage());
  }

  @Test
  void anyQueueTakesTheQueuesNotNamed() throws Exception {
    EntryPoint entry =
        EntryPoint.builder()
            .queue("named", records -> fail("named"))
            .anyQueue(records -> BatchOutcome.allSucceeded())
            .build();

    assertEquals(
        "{\"batchItemFailures\":[]}", new String(entry.invoke(Events.sqs("unnamed", "m1"))));
  }

  @Test
  void kinesisRecordsAreDecodedAndTheFirstFailureAnswered() throws Exception {
    List<KinesisRecord> seen = new ArrayList<>();
    EntryPoint entry =
        EntryPoint.builder()
            .kinesisStream(
                "arn:aws:kinesis:eu-west-1:123456789012:stream/transactions",
                records -> {
                  seen.addAll(records);
                  return BatchOutcome.failed(List.of(records.get(1).sequenceNumber()));
                })
            .build();

    JsonNode answer =
        JSON.readTree(entry.invoke(Events.kinesis("transactions", "495001", "495002")));

    assertEquals("495002", answer.at("/batchItemFailures/0/itemIdentifier").asText());
    KinesisRecord first = seen.get(0);
    assertEquals("transactions", first.streamName());
    assertEquals("shardId-000000000003", first.shardId());
    assertEquals("card-1", first.partitionKey());
    assertEquals("hello", new String(first.data()));
    assertEquals(Instant.ofEpochMilli(1700000000250L), first.arrivedAt());
  }

  @Test
  void dynamoDbChangesCarryTheirImagesAsAttributeValues() {
    List<ChangeRecord> seen = new ArrayList<>();
    EntryPoint entry =
        EntryPoint.builder()
            .dynamoDbStream(
                "orders",
                records -> {
                  seen.addAll(records);
                  return BatchOutcome.allSucceeded();
                })
            .build();

    entry.invoke(Events.dynamoDb("orders"));

    ChangeRecord change = seen.get(0);
    assertEquals("orders", change.tableName());
    assertEquals("MODIFY", change.eventName());
    assertEquals("4421584500000000017450439091", change.sequenceNumber());
    assertEquals(Instant.ofEpochSecond(1700000000), change.createdAt());
    assertEquals(AttributeValue.fromS("order#1"), change.keys().get("pk"));
    assertEquals(AttributeValue.fromN("2"), change.newImage().get("n"));
    assertEquals(List.of("a", "b"), change.newImage().get("tags").ss());
    AttributeValue nested = change.newImage().get("m");
    assertTrue(nested.m().get("ok").bool());
    assertTrue(nested.m().get("l").l().get(0).nul());
    assertEquals(SdkBytes.fromByteArray(new byte[] {1, 2}), nested.m().get("l").l().get(1).b());
    assertEquals(AttributeValue.fromN("1"), change.oldImage().get("n"));
  }

  @Test
  void aScheduledTaskGetsTheInvocationsDeadline() throws Exception {
    EntryPoint entry =
        EntryPoint.builder()
            .scheduled("sees", event -> event.deadline().hasMoreThan(Duration.ofMinutes(1)))
            .scheduleRule("arn:aws:events:eu-west-1:123456789012:rule/tick")
            .build();

    assertTrue(JSON.readTree(entry.invoke(Events.scheduled())).at("/tasks/sees").asBoolean());
    JsonNode answer =
        JSON.readTree(entry.invoke(Events.scheduled(), Deadline.after(Duration.ZERO)));
    assertFalse(answer.at("/tasks/sees").asBoolean(), "no time left: " + answer);
  }

  @Test
  void aScheduledEventRunsEveryTaskEvenWhenOneFails() throws Exception {
    EntryPoint ok =
        EntryPoint.builder()
            .scheduled("timers", event -> Map.of("sent", 2, "at", event.time().toString()))
            .scheduled("tick", event -> 7)
            .scheduleRule("tick")
            .build();

    assertEquals(
        "{\"tasks\":{\"timers\":{\"sent\":2,\"at\":\"2024-03-12T10:15:00Z\"},\"tick\":7}}".length(),
        new String(ok.invoke(Events.scheduled())).length());
    JsonNode answer = JSON.readTree(ok.invoke(Events.scheduled()));
    assertEquals(2, answer.at("/tasks/timers/sent").asInt());
    assertEquals(7, answer.at("/tasks/tick").asInt());

    EntryPoint failing =
        EntryPoint.builder()
            .scheduled(
                "broken",
                event -> {
                  throw new IllegalStateException("no table");
                })
            .scheduled("after", event -> calls.add("after"))
            .scheduleRule("tick")
            .build();
    var e = assertThrows(IllegalStateException.class, () -> failing.invoke(Events.scheduled()));
    assertTrue(e.getMessage().contains("'broken' failed: no table"), e.getMessage());
    assertEquals(List.of("after"), calls);
  }

  @Test
  void anUnrecognisedPayloadIsRefusedNamingEveryAcceptedShape() {
    EntryPoint entry = EntryPoint.builder().functions(COUNTER).build();
    String s3 = "{\"Records\":[{\"eventSource\":\"aws:s3\",\"s3\":{}}]}";

    for (byte[] payload :
        List.of(utf8(s3), utf8("hello"), new byte[0], utf8("{\"name\":1}"), utf8("{not json"))) {
      var e = assertThrows(UnrecognizedPayloadException.class, () -> entry.invoke(payload));
      for (PayloadShape shape : PayloadShape.values()) {
        assertTrue(e.getMessage().contains(shape.describe()), e.getMessage());
      }
    }
    assertNull(EntryPoint.shapeOf(utf8(s3)));
  }

  @Test
  void aShapeWithoutARouteSaysWhatToRegister() {
    EntryPoint entry =
        EntryPoint.builder().scheduled("tick", event -> 1).scheduleRule("tick").build();
    byte[] request = PeerWire.request("a", "b", "c").message(PeerWire.string("x")).bytes();

    var e = assertThrows(NoRouteException.class, () -> entry.invoke(request));

    assertTrue(e.getMessage().contains("register functions(registry)"), e.getMessage());
    assertTrue(e.getMessage().contains("scheduled tasks [tick]"), e.getMessage());
  }

  @Test
  void theBuilderRefusesWhatCannotWork() {
    assertThrows(IllegalStateException.class, () -> EntryPoint.builder().build());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            EntryPoint.builder()
                .queue("q", r -> null)
                .queue("arn:aws:sqs:eu-west-1:123456789012:q", r -> null));
    assertThrows(
        IllegalArgumentException.class,
        () -> EntryPoint.builder().queue("arn:aws:kinesis:eu-west-1:123456789012:q", r -> null));
    assertThrows(
        IllegalArgumentException.class, () -> EntryPoint.builder().kinesisStream("a b", r -> null));
    assertThrows(
        IllegalArgumentException.class, () -> EntryPoint.builder().scheduled("a b", e -> 1));
    assertThrows(IllegalArgumentException.class, () -> EntryPoint.builder().maxRequestBytes(0));
  }

  @Test
  void sourceNamesAreReadFromUrlsAndArns() {
    assertEquals("q.fifo", QueueRecord.queueName("https://sqs.eu-west-1.amazonaws.com/1/q.fifo"));
    assertEquals("q.fifo", QueueRecord.queueName("http://127.0.0.1:9324/000000000000/q.fifo/"));
    assertEquals("q", QueueRecord.queueName("arn:aws:sqs:eu-west-1:1:q"));
    assertEquals("s", KinesisRecord.streamName("arn:aws:kinesis:eu-west-1:1:stream/s"));
    assertEquals(
        "s", KinesisRecord.streamName("arn:aws:kinesis:eu-west-1:1:stream/s/consumer/c:1"));
    assertEquals("t", ChangeRecord.tableName("arn:aws:dynamodb:eu-west-1:1:table/t/stream/2024"));
    assertEquals("t", ChangeRecord.tableName("t"));
  }

  @Test
  void primingTouchesNoConsumer() {
    EntryPoint entry =
        EntryPoint.builder()
            .functions(COUNTER)
            .anyQueue(records -> fail("queue"))
            .anyKinesisStream(records -> fail("kinesis"))
            .anyDynamoDbStream(records -> fail("dynamodb"))
            .scheduled("tick", event -> fail("tick"))
            .anyScheduleRule()
            .build();

    entry.prime();

    assertEquals(List.of(), calls);
  }

  private BatchOutcome fail(String who) {
    calls.add(who);
    return BatchOutcome.allSucceeded();
  }
}
