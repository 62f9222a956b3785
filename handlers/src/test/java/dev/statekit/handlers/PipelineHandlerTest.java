package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.PipelineFailedException;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pipeline handler over Lambda's events as Lambda sends them (fixtures), in memory. */
class PipelineHandlerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SEQ = "4959033827149025660855969253836157109592157598913658000";

  /** A click: {@code {"page": "home", "time": 1000}}. */
  record Click(String page, long time) {}

  private final CollectingEgressSink results = new CollectingEgressSink();
  private final ManualClock clock = new ManualClock(1_767_225_600_000L);

  private PipelineHandler clicksPerTenSeconds() {
    return clicksPerTenSeconds(null);
  }

  private PipelineHandler clicksPerTenSeconds(List<String> sources) {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .decode(Serdes.json(Click.class))
            .withWatermarks(
                WatermarkStrategy.<Click>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(Click::time)
                    .withIdleTimeout(Duration.ofMinutes(1)))
            .keyBy(Click::page)
            .window(Windows.tumbling(Duration.ofSeconds(10)))
            .aggregate(
                AggregateFunction.<Click>count(),
                Serdes.longs(),
                (String page, TimeWindow w, Long n) -> page + "@" + w.start() + "=" + n)
            .to(EgressOutput.to(results, TypeName.of("test", "clicks"), Types.stringType()));
    BatchPipeline batches =
        BatchPipeline.builder("clicks", pipeline)
            .store(new InMemoryBatchStore())
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    return sources == null ? new PipelineHandler(batches) : new PipelineHandler(batches, sources);
  }

  @Test
  void aHandlerGivenItsSourcesTakesTheirEventsAndRefusesOthers() throws Exception {
    PipelineHandler handler =
        clicksPerTenSeconds(List.of("arn:aws:sqs:us-east-1:123456789012:statekit-clicks.fifo"));

    assertTrue(
        new String(invoke(handler, "pipeline/sqs-clicks.json")).contains("batchItemFailures"));
    var refused =
        assertThrows(
            dev.statekit.entry.InvocationError.class,
            () -> invoke(handler, "pipeline/kinesis-clicks.json"));
    assertTrue(refused.getMessage().startsWith("NoRouteException: "), refused.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> clicksPerTenSeconds(List.of("arn:aws:s3:::bucket")));
  }

  private static byte[] invoke(PipelineHandler handler, String fixture) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(fixture(fixture)), out, null);
    return out.toByteArray();
  }

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in = PipelineHandlerTest.class.getResourceAsStream("/events/" + name)) {
      return in.readAllBytes();
    }
  }

  private static List<String> failures(StreamsEventResponse response) {
    return response.getBatchItemFailures().stream()
        .map(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
        .toList();
  }

  @Test
  void aKinesisBatchIsACheckpointAndTheNextOneFiresTheWindow() throws IOException {
    PipelineHandler handler = clicksPerTenSeconds();
    // The fixtures are Kinesis events as Lambda's own event types read them.
    assertEquals(
        3, EventLoader.loadKinesisEvent("events/pipeline/kinesis-clicks.json").getRecords().size());

    StreamsEventResponse first =
        JSON.readValue(invoke(handler, "pipeline/kinesis-clicks.json"), StreamsEventResponse.class);
    assertEquals(List.of(), failures(first));
    assertEquals(List.of(), results.texts());

    invoke(handler, "pipeline/kinesis-clicks-later.json");
    assertEquals(List.of("about@0=1", "home@0=2"), results.texts().stream().sorted().toList());

    // The batch handed over again (Lambda retried it) changes nothing.
    invoke(handler, "pipeline/kinesis-clicks-later.json");
    assertEquals(2, results.texts().size());
    // An older batch after a later one checkpointed cannot be told from a concurrent batch of the
    // shard (ParallelizationFactor above 1): refused, nothing applied. Lambda sees an error id; the
    // function's log has the pipeline's reason, which the entry point throws.
    var failed =
        assertThrows(
            dev.statekit.entry.InvocationError.class,
            () -> invoke(handler, "pipeline/kinesis-clicks.json"));
    assertTrue(failed.getMessage().contains("(error "), failed.getMessage());
    PipelineFailedException refused =
        assertThrows(
            PipelineFailedException.class,
            () -> handler.entryPoint().invoke(fixture("pipeline/kinesis-clicks.json")));
    assertTrue(refused.getMessage().contains("ParallelizationFactor"), refused.getMessage());
    assertEquals(2, results.texts().size());
  }

  @Test
  void aFailedKinesisRecordIsAnsweredWithItsSequenceNumber() throws IOException {
    PipelineHandler handler = clicksPerTenSeconds();
    StreamsEventResponse response =
        JSON.readValue(
            invoke(handler, "pipeline/kinesis-clicks-bad.json"), StreamsEventResponse.class);
    // Lambda resumes the shard at the first failed record: only it is named.
    assertEquals(List.of(SEQ + "6"), failures(response));
  }

  @Test
  void failedSqsMessagesAreAnsweredWithTheLaterOnesOfTheirGroup() throws IOException {
    PipelineHandler handler = clicksPerTenSeconds();
    assertEquals(
        4, EventLoader.loadSQSEvent("events/pipeline/sqs-clicks.json").getRecords().size());

    SQSBatchResponse response =
        JSON.readValue(invoke(handler, "pipeline/sqs-clicks.json"), SQSBatchResponse.class);

    assertEquals(
        List.of("5f0b7a9c-1d2e-4f3a-8b4c-000000000002", "5f0b7a9c-1d2e-4f3a-8b4c-000000000003"),
        response.getBatchItemFailures().stream()
            .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
            .toList());
  }

  @Test
  void theScheduledTickFiresTheWindowsOfAQueue() throws IOException {
    PipelineHandler handler = clicksPerTenSeconds();
    invoke(handler, "pipeline/sqs-clicks.json");
    clock.advance(Duration.ofMinutes(2));
    JsonNode first = JSON.readTree(invoke(handler, "pipeline/scheduled-tick.json"));
    clock.advance(Duration.ofMinutes(2));
    JsonNode second = JSON.readTree(invoke(handler, "pipeline/scheduled-tick.json"));

    // The idle queue's event time moves on with the clock: proposed by one tick, it fires windows
    // at the next, one batch timeout on, when no batch that read the older one can still run.
    assertEquals(
        "statekit-clicks.fifo",
        first.path("tasks").path("tick").path("idleSplits").path(0).asText());
    assertEquals(0, first.path("tasks").path("tick").path("windowsFired").asInt());
    assertEquals(2, second.path("tasks").path("tick").path("windowsFired").asInt(), "" + second);
    assertEquals(List.of("about@0=1", "home@0=1"), results.texts().stream().sorted().toList());
  }

  @Test
  void dynamoDbChangesReachThePipelineAsPlainJson() throws IOException {
    CollectingEgressSink changes = new CollectingEgressSink();
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .decode(Serdes.json(JsonNode.class))
            .map(
                c ->
                    c.path("eventName").asText()
                        + " "
                        + c.path("keys").path("card").asText()
                        + " "
                        + (c.has("newImage") ? c.path("newImage") : c.path("oldImage")))
            .to(EgressOutput.to(changes, TypeName.of("test", "changes"), Types.stringType()));
    PipelineHandler handler =
        new PipelineHandler(
            BatchPipeline.builder("cards", pipeline).store(new InMemoryBatchStore()).build());
    assertEquals(
        3,
        EventLoader.loadDynamoDbEvent("events/pipeline/dynamodb-cards.json").getRecords().size());

    StreamsEventResponse response =
        JSON.readValue(invoke(handler, "pipeline/dynamodb-cards.json"), StreamsEventResponse.class);

    assertEquals(List.of(), failures(response));
    assertEquals(
        List.of(
            "INSERT 4000-0001 {\"card\":\"4000-0001\",\"limit\":300,\"tags\":[\"gold\"]}",
            "MODIFY 4000-0001 {\"card\":\"4000-0001\",\"limit\":500,\"tags\":[\"gold\"]}",
            "REMOVE 4000-0002 {\"blocked\":true,\"card\":\"4000-0002\",\"limit\":100}"),
        changes.texts());
    assertTrue(results.texts().isEmpty());
  }
}
