package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.Deadline;
import dev.statekit.entry.EntryPoint;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import dev.statekit.types.TypeName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An application's pipelines get the invocation's deadline the entry point passes, in memory and on
 * AWS: their Kinesis routes wrapped the pipeline's consumer in a consumer of records only, so the
 * deadline went no further, and a batch longer than the function's timeout was cut off by Lambda
 * before its checkpoint on every try. Schedule: the Kinesis fixture (three records of one shard) by
 * a deadline already passed; expected: the batch takes its first record and answers the second as
 * failed, for Lambda to hand over again from there.
 */
class PipelineDeadlineWiringTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EVENTS = Path.of("..", "events");

  private static Application application() {
    return Application.builder("deadline")
        .functions(
            StatefulFunctions.builder()
                .withFunction(TypeName.of("t", "noop"), (context, message) -> {})
                .build())
        .egress(ApplicationTest.SAID, "SAID_QUEUE_URL", "the queue of what is said")
        .pipeline("p", "P_STREAM", ApplicationTest::passThrough)
        .build();
  }

  private static byte[] event() throws Exception {
    return Files.readAllBytes(EVENTS.resolve("kinesis-transactions.json"));
  }

  private static List<String> secondRecord() throws Exception {
    JsonNode records = JSON.readTree(event()).path("Records");
    return List.of(records.get(1).path("kinesis").path("sequenceNumber").asText());
  }

  private static List<String> failures(byte[] answer) throws Exception {
    List<String> ids = new ArrayList<>();
    JSON.readTree(answer)
        .path("batchItemFailures")
        .forEach(f -> ids.add(f.path("itemIdentifier").asText()));
    return ids;
  }

  @Test
  void inMemoryTheKinesisRouteHandsThePipelineTheDeadline() throws Exception {
    EntryPoint entry =
        application().inMemory(Variables.of(Map.of()), Clock.systemUTC()).entryPoint();

    byte[] answer = entry.invoke(event(), Deadline.after(Duration.ZERO));

    assertEquals(secondRecord(), failures(answer));
  }

  @Test
  void onAwsTheKinesisRouteHandsThePipelineTheDeadline() throws Exception {
    Map<String, String> env = OfflineWiring.runtimeVariables();
    env.put("SAID_QUEUE_URL", "http://127.0.0.1:9/000000000000/said");
    env.put("P_STREAM", "statekit-TransactionsStream");
    env.put(AwsWiring.SCHEDULE_RULE, "tick");
    EntryPoint entry =
        AwsWiring.of(application(), Variables.of(env), OfflineWiring.clients()).eventsEntryPoint();

    byte[] answer = entry.invoke(event(), Deadline.after(Duration.ZERO));

    assertEquals(secondRecord(), failures(answer));
  }
}
