package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.aws.AwsConfig;
import dev.statekit.aws.Priming;
import dev.statekit.entry.EntryPoint;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.handlers.Variables;
import dev.statekit.types.TypeName;
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
 * An application on AWS builds its SDK clients with the first payload that needs them, and its
 * SnapStart primer builds every one: counted by client factories that count their calls.
 */
class AwsWiringLazinessTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EVENTS = Path.of("..", "events");
  // Priming's clients answer every call at once, empty; Kinesis's is built against an address
  // nothing listens on (building one opens no connection), and never called here.
  private static final AwsConfig NOWHERE =
      AwsConfig.allAt(
          URI.create("http://127.0.0.1:9"),
          URI.create("http://127.0.0.1:9"),
          URI.create("http://127.0.0.1:9"));
  // The function the fixtures address: the StateFun request's and the envelope's.
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();

  private final AtomicInteger dynamoDb = new AtomicInteger();
  private final AtomicInteger sqs = new AtomicInteger();
  private final AtomicInteger kinesis = new AtomicInteger();
  private final AwsWiring.Clients clients =
      new AwsWiring.Clients(
          counted(dynamoDb, Priming::dynamoDbClient),
          counted(sqs, Priming::sqsClient),
          counted(kinesis, NOWHERE::kinesisClient));

  private static <T> Supplier<T> counted(AtomicInteger count, Supplier<T> factory) {
    return () -> {
      count.incrementAndGet();
      return factory.get();
    };
  }

  private static Application application() {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(TypeName.of("example", "greeter"), (context, message) -> {}, SEEN)
            .withFunction(TypeName.of("shop", "cart"), (context, message) -> {})
            .build();
    return Application.builder("lazy")
        .functions(functions)
        .egress(ApplicationTest.SAID, "SAID_QUEUE_URL", "the queue of what is said")
        .pipeline("p", "P_STREAM", ApplicationTest::passThrough)
        .priming(
            "{\"target\":\"shop/cart/prime\",\"typename\":\"io.statefun.types/string\","
                + "\"value\":\"x\",\"id\":\"prime-1\"}")
        .build();
  }

  private static Map<String, String> variables() {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_REGION", "us-east-1");
    env.put("STATEKIT_TABLE", "app");
    env.put("STATEKIT_QUEUE_URL", "http://127.0.0.1:9/000000000000/ingress.fifo");
    env.put("STATEKIT_DEAD_LETTER_QUEUE_URL", "http://127.0.0.1:9/000000000000/dead.fifo");
    env.put("SAID_QUEUE_URL", "http://127.0.0.1:9/000000000000/said");
    env.put("P_STREAM", "lazy-stream");
    env.put(AwsWiring.SCHEDULE_RULE, "lazy-tick");
    return env;
  }

  private EntryPoint app(Map<String, String> env) {
    return AwsWiring.of(application(), Variables.of(env), clients).eventsEntryPoint();
  }

  private int built() {
    return dynamoDb.get() + sqs.get() + kinesis.get();
  }

  @Test
  void statefunRequestsBuildNoClient() throws Exception {
    EntryPoint app = app(variables());
    byte[] httpEvent = Files.readAllBytes(EVENTS.resolve("statefun-function-url.json"));
    byte[] toFunction = Base64.getDecoder().decode(JSON.readTree(httpEvent).get("body").asText());

    assertEquals(0, built(), "the constructor builds none");
    assertTrue(app.invoke(toFunction).length > 0);
    assertEquals(200, JSON.readTree(app.invoke(httpEvent)).get("statusCode").asInt());
    assertEquals(0, built(), "no StateFun request builds one");
  }

  @Test
  void anEnvelopeBuildsTheRuntimesClientsOnceAndNotKinesis() throws Exception {
    EntryPoint app = app(variables());
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
  void theIngressEntryPointBuildsTheRuntimeWithItsFirstEnvelope() throws Exception {
    EntryPoint ingress =
        AwsWiring.of(application(), Variables.of(variables()), clients).ingressEntryPoint();
    assertEquals(0, built(), "the constructor builds none");

    invokeIgnoringAnswer(ingress, Files.readAllBytes(EVENTS.resolve("envelope-add-item.json")));
    assertEquals(1, dynamoDb.get());
    assertEquals(1, sqs.get());
    assertEquals(0, kinesis.get());
  }

  @Test
  void primingBuildsEveryClientOnceSoASnapshotHoldsThem() throws Exception {
    EntryPoint app = app(variables());

    app.prime();
    assertEquals(1, dynamoDb.get());
    assertEquals(1, sqs.get());
    assertEquals(1, kinesis.get());
    app.prime();
    app.invoke(Files.readAllBytes(EVENTS.resolve("statefun-function-url.json")));
    assertEquals(3, built(), "nothing built twice");
  }

  @Test
  void aMalformedEndpointStillFailsTheConstructor() {
    Map<String, String> env = variables();
    env.put(AwsConfig.DYNAMODB_ENDPOINT, "localhost:8000");

    var e =
        assertThrows(
            IllegalArgumentException.class, () -> application().entryPoint(Variables.of(env)));
    assertTrue(e.getMessage().contains(AwsConfig.DYNAMODB_ENDPOINT), e.getMessage());
  }

  @Test
  void aMissingVariableStillFailsTheConstructor() {
    Map<String, String> env = variables();
    env.remove("SAID_QUEUE_URL");

    var e = assertThrows(IllegalStateException.class, () -> app(env));
    assertTrue(e.getMessage().contains("SAID_QUEUE_URL"), e.getMessage());
    assertEquals(0, built());
  }

  /** The offline answers are empty: what the runtime makes of them does not matter here. */
  private static void invokeIgnoringAnswer(EntryPoint app, byte[] payload) {
    try {
      app.invoke(payload);
    } catch (RuntimeException e) {
      // built what it needed before failing
    }
  }
}
