package dev.statekit.examples.greeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.entry.InvocationError;
import dev.statekit.function.Address;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestQueue;
import dev.statekit.testservers.TestTable;
import dev.statekit.types.Types;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The example application's three Lambda handlers on the runtime, with event fixtures. */
@ExtendWith(RealServers.class)
class GreeterRuntimeIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SqsClient sqs;
  private DynamoDbClient dynamoDb;
  private String table;
  private String ingress;
  private String deadLetters;
  private String greets;
  private GreeterInvokeHandler invoke;
  private GreeterQueueHandler queue;
  private GreeterSweepHandler sweep;

  @BeforeEach
  void wire(DynamoDbClient dynamoDb, SqsClient sqs, TestTable table, TestQueue ingress) {
    this.sqs = sqs;
    this.dynamoDb = dynamoDb;
    this.table = table.name();
    this.ingress = ingress.url();
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    this.deadLetters =
        sqs.createQueue(
                b ->
                    b.queueName("greeter-dlq-" + suffix + ".fifo")
                        .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true")))
            .queueUrl();
    this.greets = sqs.createQueue(b -> b.queueName("greets-" + suffix)).queueUrl();
    RuntimeEnvironment environment =
        RuntimeEnvironment.of(
            Map.of(
                RuntimeEnvironment.TABLE,
                this.table,
                RuntimeEnvironment.QUEUE_URL,
                this.ingress,
                RuntimeEnvironment.DEAD_LETTER_QUEUE_URL,
                deadLetters,
                GreeterRuntime.GREETS_QUEUE_URL,
                greets),
            dynamoDb,
            sqs);
    var runtime = GreeterRuntime.create(environment);
    invoke = new GreeterInvokeHandler(runtime);
    queue = new GreeterQueueHandler(runtime);
    sweep = new GreeterSweepHandler(runtime);
  }

  @Test
  void aDirectInvokeGreetsOnceAndTellsTheAuditThroughTheQueue() throws IOException {
    JsonNode first = call(invoke, fixture("runtime-direct-greeter.json"));
    JsonNode repeat = call(invoke, fixture("runtime-direct-greeter.json"));
    drainIngress();

    assertEquals("applied", first.get("status").asText());
    assertEquals("duplicate", repeat.get("status").asText());
    assertEquals(List.of("Hello Ada! I have seen you 1 times."), bodies(greets));
    assertEquals(1, longValue(Address.of(Audit.TYPE, "all"), "total"));
  }

  @Test
  void aDirectBatchAnswersEachEnvelope() throws IOException {
    JsonNode answer = call(invoke, fixture("runtime-direct-batch.json"));

    List<String> statuses = new ArrayList<>();
    answer.get("results").forEach(r -> statuses.add(r.get("status").asText()));
    assertEquals(List.of("applied", "applied", "rejected", "failed"), statuses);
    assertTrue(answer.get("results").get(2).get("error").asText().contains("'value'"));
    assertTrue(
        answer.get("results").get(3).get("error").asText().contains("Unknown reminder command"));
    assertEquals(2, intValue(Address.of(Greeter.TYPE, "Grace"), "seen"));
  }

  @Test
  void aMalformedSingleEnvelopeIsALambdaErrorThatSaysWhy() {
    InvocationError error =
        assertThrows(
            InvocationError.class,
            () ->
                call(
                    invoke, "{\"target\":\"example/greeter/x\"}".getBytes(StandardCharsets.UTF_8)));

    assertTrue(error.getMessage().startsWith("InvalidEnvelopeException: "), error.getMessage());
    assertTrue(error.getMessage().contains("'typename'"), error.getMessage());
  }

  @Test
  void anSqsEventIsAnsweredWithBatchItemFailuresAndBadMessagesAreDeadLettered() {
    SQSEvent event = EventLoader.loadSQSEvent("events/runtime-sqs-batch.json");

    SQSBatchResponse response = queue.handleRequest(event, null);

    assertEquals(List.of(), response.getBatchItemFailures());
    assertEquals(1, intValue(Address.of(Greeter.TYPE, "Alan"), "seen"));
    List<String> dead = bodies(deadLetters);
    assertEquals(2, dead.size(), dead.toString());
    assertTrue(dead.contains("greetings, not an envelope"));
    assertEquals(List.of("Hello Alan! I have seen you 1 times."), bodies(greets));
  }

  @Test
  void theScheduledSweepFiresDueReminders() throws IOException {
    call(
        invoke,
        ("{\"target\":\"example/reminder/r1\",\"typename\":\"io.statefun.types/string\","
                + "\"value\":\"set:0:tea\"}")
            .getBytes(StandardCharsets.UTF_8));

    JsonNode swept = call(sweep, fixture("scheduled-sweep.json"));
    List<SQSEvent.SQSMessage> fired = receiveIngress();

    assertEquals(1, swept.get("sent").asInt());
    assertEquals(1, fired.size());
    assertTrue(fired.get(0).getBody().contains("\"timer\""), fired.get(0).getBody());
    assertEquals(List.of(), queue.handleRequest(event(fired), null).getBatchItemFailures());
    assertEquals(0, call(sweep, fixture("scheduled-sweep.json")).get("sent").asInt());
  }

  private void drainIngress() {
    for (List<SQSEvent.SQSMessage> batch = receiveIngress();
        !batch.isEmpty();
        batch = receiveIngress()) {
      SQSBatchResponse response = queue.handleRequest(event(batch), null);
      assertEquals(List.of(), response.getBatchItemFailures());
      batch.forEach(
          m -> sqs.deleteMessage(b -> b.queueUrl(ingress).receiptHandle(m.getReceiptHandle())));
    }
  }

  private List<SQSEvent.SQSMessage> receiveIngress() {
    List<SQSEvent.SQSMessage> records = new ArrayList<>();
    for (Message m :
        sqs.receiveMessage(
                b ->
                    b.queueUrl(ingress)
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(1)
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
            .messages()) {
      SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
      record.setMessageId(m.messageId());
      record.setReceiptHandle(m.receiptHandle());
      record.setBody(m.body());
      record.setAttributes(m.attributesAsStrings());
      records.add(record);
    }
    return records;
  }

  private static SQSEvent event(List<SQSEvent.SQSMessage> records) {
    SQSEvent event = new SQSEvent();
    event.setRecords(records);
    return event;
  }

  private List<String> bodies(String url) {
    List<String> bodies = new ArrayList<>();
    for (int polls = 0; polls < 5; polls++) {
      List<Message> batch =
          sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
              .messages();
      batch.forEach(m -> bodies.add(m.body()));
      if (batch.isEmpty() && !bodies.isEmpty()) {
        break;
      }
    }
    return bodies;
  }

  private long longValue(Address address, String state) {
    var value = new DynamoDbFunctionStore(dynamoDb, table).reload(address).values().get(state);
    return value == null ? 0 : Types.longType().deserialize(value.bytes());
  }

  private int intValue(Address address, String state) {
    var value = new DynamoDbFunctionStore(dynamoDb, table).reload(address).values().get(state);
    return value == null ? 0 : Types.integerType().deserialize(value.bytes());
  }

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in = GreeterRuntimeIT.class.getResourceAsStream("/events/" + name)) {
      return in.readAllBytes();
    }
  }

  private static JsonNode call(
      com.amazonaws.services.lambda.runtime.RequestStreamHandler handler, byte[] payload)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(payload), out, null);
    return JSON.readTree(out.toByteArray());
  }
}
