package dev.statekit.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.handlers.ApplicationHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What constructing the examples' handler loads, in a fresh JVM as on Lambda: the constructor is
 * part of every cold start, so it must build neither Jackson's {@code ObjectMapper} (about 170 ms
 * of class loading, which a StateFun request never needs) nor an AWS SDK client. The class loading
 * log of a JVM that only constructs the handler is the evidence: a class that only a built mapper
 * or client loads must be absent from it.
 */
class ColdConstructionTest {
  /** Loaded by {@code ObjectMapper}'s static initializer, by nothing that only names the class. */
  private static final String MAPPER_BUILT = "com.fasterxml.jackson.databind.cfg.BaseSettings ";

  /** Loaded by building any SDK client. */
  private static final String CLIENT_BUILT =
      "software.amazon.awssdk.core.client.builder.SdkDefaultClientBuilder ";

  @Test
  void constructingTheHandlerBuildsNoObjectMapperAndNoClient() throws Exception {
    String log = classLoadLog(Construct.class.getName());

    assertTrue(
        log.contains("dev.statekit.handlers.ApplicationHandler ") && log.contains("CONSTRUCTED"),
        "the constructor ran to its end");
    assertFalse(log.contains(MAPPER_BUILT), "the constructor built an ObjectMapper");
    assertFalse(log.contains(CLIENT_BUILT), "the constructor built an SDK client");
  }

  @Test
  void theMarkersAreThoseABuiltMapperAndClientLoad() throws Exception {
    // Without this, a renamed class would let the test above pass whatever the constructor does.
    String log = classLoadLog(BuildBoth.class.getName());

    assertTrue(log.contains(MAPPER_BUILT), MAPPER_BUILT + "is not what a built mapper loads");
    assertTrue(log.contains(CLIENT_BUILT), CLIENT_BUILT + "is not what a built client loads");
  }

  private static String classLoadLog(String main) throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xlog:class+load=info",
                    "-cp",
                    System.getProperty("java.class.path"),
                    main))
            .redirectErrorStream(true);
    builder.environment().putAll(environment());
    Process process = builder.start();
    byte[] output = process.getInputStream().readAllBytes();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the JVM did not end");
    String log = new String(output, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), log);
    return log;
  }

  /** What template.yaml sets; the endpoints are never called, as nothing is built. */
  private static Map<String, String> environment() {
    return Map.ofEntries(
        Map.entry("AWS_REGION", "us-east-1"),
        Map.entry("STATEKIT_APPLICATION", ExampleApp.class.getName()),
        Map.entry("STATEKIT_DYNAMODB_ENDPOINT", "http://127.0.0.1:9"),
        Map.entry("STATEKIT_SQS_ENDPOINT", "http://127.0.0.1:9"),
        Map.entry("STATEKIT_KINESIS_ENDPOINT", "http://127.0.0.1:9"),
        Map.entry("STATEKIT_TABLE", "statekit-table"),
        Map.entry(
            "STATEKIT_QUEUE_URL", "http://127.0.0.1:9/000000000000/statekit-IngressQueue.fifo"),
        Map.entry(
            "STATEKIT_DEAD_LETTER_QUEUE_URL",
            "http://127.0.0.1:9/000000000000/statekit-DeadLetterQueue.fifo"),
        Map.entry("STATEKIT_WAKE_UP_QUEUE_URL", "http://127.0.0.1:9/000000000000/wake-ups"),
        Map.entry("GREETS_QUEUE_URL", "http://127.0.0.1:9/000000000000/greets"),
        Map.entry("ORDERS_QUEUE_URL", "http://127.0.0.1:9/000000000000/orders"),
        Map.entry("TRANSACTIONS_STREAM", "statekit-TransactionsStream"),
        Map.entry("STATEKIT_SCHEDULE_RULE", "statekit-tick"));
  }

  /** Constructs the handler as Lambda does, nothing more. */
  static final class Construct {
    public static void main(String[] args) {
      new ApplicationHandler();
      System.out.println("CONSTRUCTED");
    }
  }

  /** Builds a mapper and a client, to show what the markers catch. */
  static final class BuildBoth {
    public static void main(String[] args) {
      new com.fasterxml.jackson.databind.ObjectMapper();
      software.amazon.awssdk.services.sqs.SqsClient.builder()
          .region(software.amazon.awssdk.regions.Region.US_EAST_1)
          .credentialsProvider(
              software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider.create())
          .build()
          .close();
    }
  }
}
