package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.testservers.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * tables, invoke, send, state and replay in their own process (no serve), on the embedded servers.
 */
@ExtendWith(RealServers.class)
class CommandsIT {
  private static final String PREFIX = "cmd-" + UUID.randomUUID().toString().substring(0, 6);
  private static final Path EVENTS = Path.of("..", "events");

  @Test
  void tablesCreatesTheTemplatesResources(DynamoDbClient dynamoDb, SqsClient sqs) {
    Run run = Run.of("tables", "--prefix", PREFIX);

    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("Table StateTable: " + PREFIX + "-StateTable"), run.out());
    assertEquals(
        "expires_at",
        dynamoDb
            .describeTimeToLive(b -> b.tableName(PREFIX + "-StateTable"))
            .timeToLiveDescription()
            .attributeName());
    String ingress = sqs.getQueueUrl(b -> b.queueName(PREFIX + "-IngressQueue.fifo")).queueUrl();
    String redrive =
        sqs.getQueueAttributes(b -> b.queueUrl(ingress).attributeNamesWithStrings("RedrivePolicy"))
            .attributesAsStrings()
            .get("RedrivePolicy");
    assertTrue(
        redrive.contains(PREFIX + "-DeadLetterQueue.fifo") && redrive.contains("10"), redrive);
    assertEquals(
        0, Run.of("tables", "--prefix", PREFIX).status(), "a second run keeps what is there");
  }

  @Test
  void invokeRunsAnEventFixtureInProcess() throws Exception {
    Run statefun = invokeFixture("statefun-function-url.json");
    assertEquals(0, statefun.status(), statefun.toString());
    assertTrue(statefun.out().contains("\"statusCode\" : 200"), statefun.out());

    Run batch = invokeFixture("envelopes-batch.json");
    assertEquals(0, batch.status(), batch.toString());
    assertTrue(batch.out().contains("\"status\" : \"applied\""), batch.out());

    Run tick = invokeFixture("schedule-tick.json");
    assertTrue(tick.out().contains("\"timers\""), tick.out());

    Path notAnEvent = Files.createTempFile("not-an-event", ".json");
    Files.writeString(notAnEvent, "{\"hello\": \"world\"}");
    Run refused = Run.of("invoke", "--prefix", PREFIX, "--event", notAnEvent.toString());
    assertEquals(1, refused.status(), refused.toString());
    assertTrue(
        refused.out().contains("UnrecognizedPayloadException")
            && refused.out().contains("Send one of"),
        refused.out());
  }

  @Test
  void callPrintsTheRepliesAndARetryWithTheSameKeyGetsTheSameOne() {
    Run add =
        Run.of(
            "call",
            "--prefix",
            PREFIX,
            "shop/cart/cleo",
            "{\"sku\": \"mug\", \"quantity\": 1}",
            "--type",
            "shop/add-item",
            "--id",
            "cleo-add-mug-1");
    Run again =
        Run.of(
            "call",
            "--prefix",
            PREFIX,
            "shop/cart/cleo",
            "{\"sku\": \"mug\", \"quantity\": 1}",
            "--type",
            "shop/add-item",
            "--id",
            "cleo-add-mug-1");
    Run wrong = Run.of("call", "--prefix", PREFIX, "shop/cart/cleo", "oops", "--type", "shop/x");

    assertEquals(0, add.status(), add.toString());
    assertTrue(add.out().contains("\"reservationId\" : \"cleo-1\""), add.out());
    assertTrue(add.out().contains("\"repeat\" : false"), add.out());
    assertEquals(0, again.status(), again.toString());
    assertTrue(again.out().contains("\"repeat\" : true"), again.out());
    assertTrue(again.out().contains("\"reservationId\" : \"cleo-1\""), again.out());
    assertEquals(1, wrong.status(), wrong.toString());
    assertTrue(wrong.out().contains("failed"), wrong.out());
  }

  @Test
  void sendThenStateShowsTheDecodedValues() {
    Run restock =
        Run.of(
            "send",
            "--prefix",
            PREFIX,
            "shop/inventory/pen",
            "{\"quantity\": 4}",
            "--type",
            "shop/restock",
            "--id",
            "restock-pen-1");
    assertEquals(0, restock.status(), restock.toString());
    Run again =
        Run.of(
            "send",
            "--prefix",
            PREFIX,
            "shop/inventory/pen",
            "{\"quantity\": 4}",
            "--type",
            "shop/restock",
            "--id",
            "restock-pen-1");
    assertTrue(again.out().contains("duplicate"), again.out());

    Run state = Run.of("state", "--prefix", PREFIX, "shop/inventory/pen");

    assertEquals(0, state.status(), state.toString());
    assertTrue(state.out().contains("\"available\" : 4"), state.out());
    assertTrue(state.out().contains("\"type\" : \"shop/inventory-state\""), state.out());
    Run unknown = Run.of("state", "--prefix", PREFIX, "no/such/thing");
    assertEquals(1, unknown.status(), unknown.toString());
    assertTrue(unknown.err().contains("No function is registered for no/such"), unknown.err());
  }

  @Test
  void replayFeedsAFileThroughThePipelineToTheCardFunctions() throws Exception {
    Path file = Files.createTempFile("transactions", ".jsonl");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      lines
          .append("{\"id\":\"t")
          .append(i)
          .append(
              "\",\"card\":\"4000-9\",\"amountCents\":100,\"merchant\":\"m\",\"country\":\"FR\",\"time\":")
          .append(1_000_000 + i * 1000)
          .append("}\n");
    }
    lines.append("not json\n");
    // A payment on another card 15 minutes later: event time passes every window of the burst.
    lines.append(
        "{\"id\":\"later\",\"card\":\"4000-1\",\"amountCents\":100,\"merchant\":\"m\","
            + "\"country\":\"FR\",\"time\":1905000}\n");
    Files.writeString(file, lines);
    // Its own table: the pipeline's event time must not have passed the file's already.
    String prefix = PREFIX + "-r1";

    Run run = Run.of("replay", "--prefix", prefix, "--pipeline", "fraud-check", file.toString());

    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("8/8 records (100%)"), run.out());
    assertTrue(
        run.out()
            .contains(
                "Replayed 8 records through fraud-check as Kinesis events of "
                    + prefix
                    + "-TransactionsStream/shardId-replay-"),
        run.out());
    Run state = Run.of("state", "--prefix", prefix, "fraud/card/4000-9");
    assertTrue(state.out().contains("\"alerts\" : 10"), state.out());

    Run again = Run.of("replay", "--prefix", prefix, "--pipeline", "fraud-check", file.toString());
    assertEquals(0, again.status(), again.toString());
    Run after = Run.of("state", "--prefix", prefix, "fraud/card/4000-9");
    assertTrue(after.out().contains("\"alerts\" : 10"), "nothing applied twice: " + after.out());
  }

  @Test
  void invokeRunsTheKinesisFixtureThroughTheFraudCheck() {
    // The fixture's records come from statekit-TransactionsStream: the template's default names.
    Run run =
        Run.of(
            "invoke",
            "--prefix",
            "statekit",
            "--event",
            EVENTS.resolve("kinesis-transactions.json").toString());

    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("\"batchItemFailures\" : [ ]"), run.out());
  }

  @Test
  void theShippedTransactionsFileBlocksTheBurstingCard() {
    String prefix = PREFIX + "-r2";
    Run run =
        Run.of(
            "replay",
            "--prefix",
            prefix,
            "--pipeline",
            "fraud-check",
            EVENTS.resolve("transactions.jsonl").toString());

    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("32/32 records (100%)"), run.out());
    Run burst = Run.of("state", "--prefix", prefix, "fraud/card/4000-0000-0000-0666");
    assertTrue(burst.out().contains("3 countries in 10 minutes"), burst.out());
    Run quiet = Run.of("state", "--prefix", prefix, "fraud/card/4000-0000-0000-0001");
    assertEquals(0, quiet.status(), quiet.toString());
    assertTrue(!quiet.out().contains("\"reason\""), "an ordinary card stays unblocked: " + quiet);
  }

  /** {@code invoke --event events/<fixture>} under this class's prefix. */
  private static Run invokeFixture(String fixture) {
    return Run.of("invoke", "--prefix", PREFIX, "--event", EVENTS.resolve(fixture).toString());
  }
}
