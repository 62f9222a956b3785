package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.Deadline;
import dev.statekit.aws.AwsConfig;
import dev.statekit.aws.Priming;
import dev.statekit.entry.EntryPoint;
import dev.statekit.entry.NoRouteException;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.internal.WakeUps;
import dev.statekit.runtime.store.TimerKey;
import dev.statekit.types.TypeName;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The queues an application's AWS wiring takes batches from (the ingress and the wake-up queue, no
 * other), and its queue variables checked when the handler is constructed, as they were before the
 * runtime was built lazily.
 */
class AwsWiringQueuesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AwsConfig NOWHERE =
      AwsConfig.allAt(
          URI.create("http://127.0.0.1:9"),
          URI.create("http://127.0.0.1:9"),
          URI.create("http://127.0.0.1:9"));
  private static final String WAKE_UP_ARN = "arn:aws:sqs:us-east-1:000000000000:wake";
  private static final String OTHER_ARN = "arn:aws:sqs:us-east-1:000000000000:other";
  private static final String INGRESS_ARN = "arn:aws:sqs:us-east-1:000000000000:ingress.fifo";

  private final AtomicInteger dynamoDb = new AtomicInteger();
  private final AtomicInteger sqs = new AtomicInteger();
  private final AwsWiring.Clients clients =
      new AwsWiring.Clients(
          counted(dynamoDb, Priming::dynamoDbClient),
          counted(sqs, Priming::sqsClient),
          NOWHERE::kinesisClient);

  private static <T> Supplier<T> counted(AtomicInteger count, Supplier<T> factory) {
    return () -> {
      count.incrementAndGet();
      return factory.get();
    };
  }

  private static Application application() {
    return Application.builder("queues")
        .functions(
            StatefulFunctions.builder()
                .withFunction(TypeName.of("shop", "cart"), (context, message) -> {})
                .build())
        .egress(ApplicationTest.SAID, "SAID_QUEUE_URL", "the queue of what is said")
        .build();
  }

  private static Map<String, String> variables() {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_REGION", "us-east-1");
    env.put("STATEKIT_TABLE", "app");
    env.put("STATEKIT_QUEUE_URL", "http://127.0.0.1:9/000000000000/ingress.fifo");
    env.put("STATEKIT_DEAD_LETTER_QUEUE_URL", "http://127.0.0.1:9/000000000000/dead.fifo");
    env.put(RuntimeEnvironment.WAKE_UP_QUEUE_URL, "http://127.0.0.1:9/000000000000/wake");
    env.put("SAID_QUEUE_URL", "http://127.0.0.1:9/000000000000/said");
    env.put(AwsWiring.SCHEDULE_RULE, "queues-tick");
    return env;
  }

  private EntryPoint events(Map<String, String> env) {
    return AwsWiring.of(application(), Variables.of(env), clients).eventsEntryPoint();
  }

  private EntryPoint ingress(Map<String, String> env) {
    return AwsWiring.of(application(), Variables.of(env), clients).ingressEntryPoint();
  }

  /** An SQS event of a standard queue (no group, no sequence number) holding {@code bodies}. */
  private static byte[] sqsEvent(String arn, String... bodies) throws Exception {
    List<Map<String, Object>> records = new ArrayList<>();
    for (int i = 0; i < bodies.length; i++) {
      Map<String, Object> record = new HashMap<>();
      record.put("messageId", "m-" + i);
      record.put("receiptHandle", "h-" + i);
      record.put("body", bodies[i]);
      record.put(
          "attributes", Map.of("ApproximateReceiveCount", "1", "SentTimestamp", "1767225600001"));
      record.put("messageAttributes", Map.of());
      record.put("md5OfBody", "00000000000000000000000000000000");
      record.put("eventSource", "aws:sqs");
      record.put("eventSourceARN", arn);
      record.put("awsRegion", "us-east-1");
      records.add(record);
    }
    return JSON.writeValueAsBytes(Map.of("Records", records));
  }

  private static String wakeUp(String id) {
    return WakeUps.PREFIX + new TimerKey(0, 1_767_225_600_000L, id).asString();
  }

  @Test
  void aWakeUpQueueBatchIsTakenByTheRuntime() throws Exception {
    EntryPoint app = events(variables());

    // The offline store has no such timer: the wake-up finds it applied and is acknowledged.
    JsonNode answer = JSON.readTree(app.invoke(sqsEvent(WAKE_UP_ARN, wakeUp("t1"), wakeUp("t2"))));
    assertEquals(0, answer.get("batchItemFailures").size(), answer.toString());
    assertEquals(1, dynamoDb.get(), "the wake-ups read their timers through the runtime");
    assertEquals(1, sqs.get());
  }

  /**
   * The ingress queue's batches reach the runtime with the invocation's deadline: the route wrapped
   * the runtime's consumer in a consumer of records only, so on Lambda a function that did not
   * answer in time still timed the whole batch out. With no time left, no invocation starts: the
   * message fails for now (offline, it would otherwise be applied).
   */
  @Test
  void theIngressQueuesBatchGetsTheInvocationsDeadline() throws Exception {
    EntryPoint app = events(variables());
    String envelope =
        "{\"target\":\"shop/cart/c1\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\","
            + "\"id\":\"k-1\"}";

    JsonNode late =
        JSON.readTree(app.invoke(sqsEvent(INGRESS_ARN, envelope), Deadline.after(Duration.ZERO)));
    assertEquals(1, late.get("batchItemFailures").size(), late.toString());
    JsonNode inTime =
        JSON.readTree(
            app.invoke(sqsEvent(INGRESS_ARN, envelope), Deadline.after(Duration.ofSeconds(30))));
    assertEquals(0, inTime.get("batchItemFailures").size(), inTime.toString());
  }

  @Test
  void anotherQueuesBatchIsRefusedAndBuildsNothing() throws Exception {
    EntryPoint app = events(variables());

    assertThrows(NoRouteException.class, () -> app.invoke(sqsEvent(OTHER_ARN, wakeUp("t1"))));
    assertEquals(0, dynamoDb.get() + sqs.get());
  }

  @Test
  void withoutAWakeUpQueueItsBatchesAreRefused() throws Exception {
    Map<String, String> env = variables();
    env.remove(RuntimeEnvironment.WAKE_UP_QUEUE_URL);
    EntryPoint app = events(env);

    assertThrows(NoRouteException.class, () -> app.invoke(sqsEvent(WAKE_UP_ARN, wakeUp("t1"))));
  }

  @Test
  void concurrentFirstBatchesBuildTheClientsOnce() throws Exception {
    EntryPoint app = events(variables());
    byte[] event = sqsEvent(WAKE_UP_ARN, wakeUp("t1"));
    int threads = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<byte[]>> answers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  return app.invoke(event);
                }));
      }
      start.countDown();
      for (Future<byte[]> answer : answers) {
        assertEquals(0, JSON.readTree(answer.get()).get("batchItemFailures").size());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, dynamoDb.get(), "one DynamoDB client for every thread");
    assertEquals(1, sqs.get(), "one SQS client for every thread");
  }

  // A queue given by its ARN (template.yaml's !GetAtt Queue.Arn where !Ref belongs) was refused
  // when the handler was constructed while the runtime was built eagerly; built lazily, it must
  // still be, not on the first envelope or batch (which would then fail again and again).

  @Test
  void anIngressQueueArnFailsTheConstructorOfEitherEntryPoint() {
    Map<String, String> env = variables();
    env.put("STATEKIT_QUEUE_URL", "arn:aws:sqs:us-east-1:000000000000:ingress.fifo");

    assertMentions(
        "STATEKIT_QUEUE_URL", assertThrows(IllegalArgumentException.class, () -> events(env)));
    assertMentions(
        "STATEKIT_QUEUE_URL", assertThrows(IllegalArgumentException.class, () -> ingress(env)));
    assertEquals(0, dynamoDb.get() + sqs.get());
  }

  @Test
  void aMalformedDeadLetterEgressOrWakeUpQueueFailsTheConstructor() {
    for (String name :
        List.of(
            "STATEKIT_DEAD_LETTER_QUEUE_URL",
            "SAID_QUEUE_URL",
            RuntimeEnvironment.WAKE_UP_QUEUE_URL)) {
      Map<String, String> env = variables();
      env.put(name, "queue-without-url");
      assertMentions(name, assertThrows(IllegalArgumentException.class, () -> ingress(env)));
      assertMentions(name, assertThrows(IllegalArgumentException.class, () -> events(env)));
    }
  }

  @Test
  void aFifoOrTheIngressQueueAsWakeUpQueueFailsTheConstructor() {
    // SQS refuses a per-message delay on a FIFO queue: every wake-up would fail to be put and
    // every delayed message would wait for the minute sweep.
    for (String url :
        List.of(
            "http://127.0.0.1:9/000000000000/ingress.fifo",
            "http://127.0.0.1:9/000000000000/wake.fifo")) {
      Map<String, String> env = variables();
      env.put(RuntimeEnvironment.WAKE_UP_QUEUE_URL, url);
      assertMentions(
          RuntimeEnvironment.WAKE_UP_QUEUE_URL,
          assertThrows(IllegalArgumentException.class, () -> ingress(env)));
      assertMentions(
          RuntimeEnvironment.WAKE_UP_QUEUE_URL,
          assertThrows(IllegalArgumentException.class, () -> events(env)));
    }
  }

  private static void assertMentions(String name, Exception e) {
    assertTrue(e.getMessage().contains(name), e.getMessage());
  }
}
