package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestStreams;
import dev.statekit.testservers.TestTable;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * End to end on kinesalite and Dynoxide: clicks put to a two-shard Kinesis stream are read by a
 * driver doing what Lambda's event source mapping does, handed to the {@link PipelineHandler} as
 * Kinesis events, retried from the failed sequence number, some batches handed over twice; then the
 * scheduled tick fires the last windows. The results table holds each window's count once, equal to
 * a count of what was put.
 */
@ExtendWith(RealServers.class)
class PipelineKinesisIT {
  private static final int RECORDS = 240;
  private static final String[] PAGES = {"home", "about", "cart"};

  /** A click: {@code {"id": 7, "page": "home", "time": 1000}}. */
  record Click(int id, String page, long time) {}

  private final ManualClock clock = new ManualClock(1_767_225_600_000L);
  private final Set<Integer> failOnce = ConcurrentHashMap.newKeySet();

  private PipelineHandler handler(DynamoDbClient dynamoDb, String table) {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .decode(Serdes.json(Click.class))
            .<Click>process(
                "flaky",
                (click, out) -> {
                  if (failOnce.remove(click.value().id())) {
                    throw new IllegalStateException("a passing failure on click " + click.value());
                  }
                  out.collect(click.value());
                },
                FailurePolicy.fail())
            .withWatermarks(
                WatermarkStrategy.<Click>boundedOutOfOrderness(Duration.ofMillis(500))
                    .withTimestamps(Click::time)
                    .withIdleTimeout(Duration.ofMinutes(1)))
            .keyBy(Click::page)
            .window(Windows.tumbling(Duration.ofSeconds(1)))
            .aggregate(
                AggregateFunction.<Click>count(),
                Serdes.longs(),
                (String page, TimeWindow w, Long n) -> page + "@" + w.start() + "=" + n)
            .to(
                EgressOutput.to(
                    DynamoDbTableSink.onApplicationTable(dynamoDb, table),
                    TypeName.of("test", "clicks"),
                    Types.stringType()));
    return new PipelineHandler(
        BatchPipeline.builder("clicks", pipeline)
            .store(new DynamoDbBatchStore(dynamoDb, table))
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build());
  }

  @Test
  void clicksPutToKinesisEndInTheResultsTableOnce(
      KinesisClient kinesis, DynamoDbClient dynamoDb, TestTable table) throws Exception {
    String stream = "clicks-" + Long.toHexString(System.nanoTime());
    TestStreams.create(kinesis, stream, 2);

    Random random = new Random(6);
    Map<String, Long> reference = new TreeMap<>();
    for (int id = 0; id < RECORDS; id++) {
      String page = PAGES[random.nextInt(PAGES.length)];
      long time =
          Math.max(0, id * 40L + random.nextInt(400) - 200); // out of order, within the bound
      Click click = new Click(id, page, time);
      String json = "{\"id\":" + id + ",\"page\":\"" + page + "\",\"time\":" + time + "}";
      kinesis.putRecord(
          b ->
              b.streamName(stream)
                  .partitionKey(page + "-" + click.id() % 7)
                  .data(SdkBytes.fromString(json, StandardCharsets.UTF_8)));
      reference.merge(page + "@" + (time / 1000 * 1000), 1L, Long::sum);
      if (id % 29 == 11) {
        failOnce.add(id);
      }
    }

    PipelineHandler handler = handler(dynamoDb, table.name());
    KinesisShardDriver driver = new KinesisShardDriver(kinesis, stream, handler, 25);
    // What a deployment does once: name the stream's shards, so no window fires before each shard
    // has had its first batch.
    assertEquals(
        2,
        handler
            .pipeline()
            .registerSplits(driver.shards().stream().map(s -> stream + "/" + s).toList())
            .size());

    driver.drain(List.of(2, 7));
    assertTrue(failOnce.isEmpty(), "every passing failure came: " + failOnce);
    assertTrue(driver.retries >= 5, "retries from a failed sequence number: " + driver.retries);
    assertTrue(driver.redelivered > 0);

    // No more records: the shards go idle and the tick fires the last windows.
    for (int tick = 0; tick < 3; tick++) {
      clock.advance(Duration.ofSeconds(70));
      tick(handler);
    }

    Set<String> expected = new TreeSet<>();
    reference.forEach((window, n) -> expected.add(window + "=" + n));
    Map<String, String> stored = storedTexts(dynamoDb, table.name(), "test/clicks");
    assertEquals(expected, new TreeSet<>(stored.values()));
    assertEquals(expected.size(), stored.size(), "each window's result once");
  }

  private static void tick(PipelineHandler handler) throws Exception {
    byte[] event =
        ("{\"version\":\"0\",\"id\":\"tick\",\"detail-type\":\"Scheduled Event\","
                + "\"source\":\"aws.events\",\"time\":\"2026-01-01T00:05:00Z\",\"resources\":[],"
                + "\"detail\":{}}")
            .getBytes(StandardCharsets.UTF_8);
    handler.handleRequest(new ByteArrayInputStream(event), new ByteArrayOutputStream(), null);
  }

  /**
   * What the application table's egress sink wrote for one egress, text by record id (read here
   * rather than through core's tests: nothing is shared from a test-jar).
   */
  private static Map<String, String> storedTexts(
      software.amazon.awssdk.services.dynamodb.DynamoDbClient dynamoDb,
      String table,
      String egress) {
    Map<String, String> stored = new java.util.TreeMap<>();
    dynamoDb
        .queryPaginator(
            b ->
                b.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(
                        Map.of(
                            ":p",
                            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                                "egress#" + egress))))
        .items()
        .forEach(item -> stored.put(item.get("sk").s(), item.get("text").s()));
    return stored;
  }
}
