package dev.statekit.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.aws.AwsConfig;
import dev.statekit.aws.Priming;
import dev.statekit.entry.EntryPoint;
import dev.statekit.handlers.Variables;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The example application builds its SDK clients with the first payload that needs them, and its
 * SnapStart primer builds every one: counted by client factories that count their calls.
 */
class ExampleAppLazyWiringTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EVENTS = Path.of("..", "events");
  // Priming's clients answer every call at once, empty; Kinesis's is built against an address
  // nothing listens on (building one opens no connection), and never called here.
  private static final AwsConfig NOWHERE =
      AwsConfig.allAt(
          URI.create("http://127.0.0.1:9"),
          URI.create("http://127.0.0.1:9"),
          URI.create("http://127.0.0.1:9"));

  private final AtomicInteger dynamoDb = new AtomicInteger();
  private final AtomicInteger sqs = new AtomicInteger();
  private final AtomicInteger kinesis = new AtomicInteger();
  private final ExampleApp.Clients clients =
      new ExampleApp.Clients(
          counted(dynamoDb, Priming::dynamoDbClient),
          counted(sqs, Priming::sqsClient),
          counted(kinesis, NOWHERE::kinesisClient));

  private static <T> Supplier<T> counted(AtomicInteger count, Supplier<T> factory) {
    return () -> {
      count.incrementAndGet();
      return factory.get();
    };
  }

  static Map<String, String> variables() {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_REGION", "us-east-1");
    env.put("STATEKIT_TABLE", "app");
    env.put("STATEKIT_QUEUE_URL", "http://127.0.0.1:9/000000000000/ingress.fifo");
    env.put("STATEKIT_DEAD_LETTER_QUEUE_URL", "http://127.0.0.1:9/000000000000/dead.fifo");
    env.put(ExampleApp.GREETS_QUEUE_URL, "http://127.0.0.1:9/000000000000/greets");
    env.put(ExampleApp.ORDERS_QUEUE_URL, "http://127.0.0.1:9/000000000000/orders");
    env.put(ExampleApp.TRANSACTIONS_STREAM, "statekit-TransactionsStream");
    env.put(ExampleApp.SCHEDULE_RULE, "statekit-tick");
    return env;
  }

  private EntryPoint app() {
    return ExampleApp.entryPoint(Variables.of(variables()), clients);
  }

  @Test
  void statefunRequestsBuildNoClient() throws Exception {
    EntryPoint app = app();
    byte[] httpEvent = Files.readAllBytes(EVENTS.resolve("statefun-function-url.json"));
    byte[] toFunction = Base64.getDecoder().decode(JSON.readTree(httpEvent).get("body").asText());

    assertEquals(0, dynamoDb.get() + sqs.get() + kinesis.get(), "the constructor builds none");
    assertTrue(app.invoke(toFunction).length > 0);
    assertEquals(200, JSON.readTree(app.invoke(httpEvent)).get("statusCode").asInt());
    assertEquals(0, dynamoDb.get() + sqs.get() + kinesis.get(), "no StateFun request builds one");
  }

  @Test
  void anEnvelopeBuildsTheRuntimesClientsOnceAndNotKinesis() throws Exception {
    EntryPoint app = app();
    byte[] envelope = Files.readAllBytes(EVENTS.resolve("envelope-add-item.json"));

    invokeIgnoringAnswer(app, envelope);
    assertEquals(1, dynamoDb.get());
    assertEquals(1, sqs.get());
    assertEquals(0, kinesis.get());
    invokeIgnoringAnswer(app, envelope);
    assertEquals(1, dynamoDb.get(), "built once, kept");
    assertEquals(1, sqs.get(), "built once, kept");
  }

  @Test
  void primingBuildsEveryClientOnceSoASnapshotHoldsThem() throws Exception {
    EntryPoint app = app();

    app.prime();
    assertEquals(1, dynamoDb.get());
    assertEquals(1, sqs.get());
    assertEquals(1, kinesis.get());
    app.prime();
    byte[] httpEvent = Files.readAllBytes(EVENTS.resolve("statefun-function-url.json"));
    app.invoke(httpEvent);
    assertEquals(3, dynamoDb.get() + sqs.get() + kinesis.get(), "nothing built twice");
  }

  @Test
  void aMalformedEndpointStillFailsTheConstructor() {
    Map<String, String> env = variables();
    env.put(AwsConfig.DYNAMODB_ENDPOINT, "localhost:8000");

    var e =
        assertThrows(
            IllegalArgumentException.class, () -> ExampleApp.entryPoint(Variables.of(env)));
    assertTrue(e.getMessage().contains(AwsConfig.DYNAMODB_ENDPOINT), e.getMessage());
  }

  @Test
  void aMissingVariableStillFailsTheConstructor() {
    Map<String, String> env = variables();
    env.remove(ExampleApp.ORDERS_QUEUE_URL);

    var e = assertThrows(IllegalStateException.class, () -> app(env));
    assertTrue(e.getMessage().contains(ExampleApp.ORDERS_QUEUE_URL), e.getMessage());
    assertEquals(0, dynamoDb.get() + sqs.get() + kinesis.get());
  }

  /** The offline answers are empty: what the runtime makes of them does not matter here. */
  private static void invokeIgnoringAnswer(EntryPoint app, byte[] payload) {
    try {
      app.invoke(payload);
    } catch (RuntimeException e) {
      // built what it needed before failing
    }
  }

  private EntryPoint app(Map<String, String> env) {
    return ExampleApp.entryPoint(Variables.of(env), clients);
  }
}
