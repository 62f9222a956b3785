package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.event.ChangeRecord;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class SourceBatchesTest {
  private static KinesisRecord kinesis(String shard, String seq) {
    return new KinesisRecord(
        "clicks", shard, seq, "pk-" + seq, new byte[] {1}, Instant.ofEpochMilli(1500));
  }

  @Test
  void kinesisRecordsMakeOneOrderedBatchPerShard() {
    List<SourceBatch> batches =
        SourceBatches.kinesis(
            List.of(kinesis("shard-1", "10"), kinesis("shard-2", "5"), kinesis("shard-1", "11")));

    assertEquals(
        List.of("clicks/shard-1", "clicks/shard-2"),
        batches.stream().map(SourceBatch::split).toList());
    SourceBatch first = batches.get(0);
    assertTrue(first.ordered());
    assertEquals(
        List.of("10", "11"), first.records().stream().map(r -> r.position().offset()).toList());
    assertEquals(1500, first.records().get(0).timestamp());
    assertEquals("pk-10", first.records().get(0).headers().get(SourceBatches.PARTITION_KEY));
  }

  /** A sender's attribute named as the group header does not make standard messages a group. */
  @Test
  void aStandardQueuesMessageAttributeCannotForgeAnOrderGroup() {
    QueueRecord message =
        new QueueRecord(
            "orders",
            "m-1",
            "hello",
            Map.of("SentTimestamp", "42"),
            Map.of(SourceBatch.ORDER_GROUP, "forged", "source", "web"));

    var record = SourceBatches.queue(List.of(message)).get(0).records().get(0);

    assertEquals(Map.of("source", "web"), record.headers());
  }

  /**
   * A dead letter is taken as a message of the queue it names among those given, else the first's.
   */
  @Test
  void deadLettersAreTakenAsMessagesOfTheQueueTheyWereMovedFrom() {
    QueueRecord named =
        new QueueRecord(
            "shared-dlq",
            "p-1",
            "a",
            Map.of("DeadLetterQueueSourceArn", "arn:aws:sqs:eu-west-1:123456789012:payments"),
            Map.of());
    QueueRecord unnamed = new QueueRecord("shared-dlq", "m-1", "b", Map.of(), Map.of());

    List<SourceBatch> batches =
        SourceBatches.deadLetters(List.of(named, unnamed), List.of("orders", "payments"));

    assertEquals(List.of("payments", "orders"), batches.stream().map(SourceBatch::split).toList());
    assertEquals("p-1", batches.get(0).records().get(0).position().offset());
    assertEquals("m-1", batches.get(1).records().get(0).position().offset());
  }

  @Test
  void queueMessagesKeepTheirGroupAndAttributes() {
    QueueRecord message =
        new QueueRecord(
            "orders.fifo",
            "m-1",
            "hello",
            Map.of("MessageGroupId", "g1", "SentTimestamp", "42"),
            Map.of("source", "web"));

    SourceBatch batch = SourceBatches.queue(List.of(message)).get(0);

    assertFalse(batch.ordered());
    assertEquals("orders.fifo", batch.split());
    var record = batch.records().get(0);
    assertEquals("m-1", record.position().offset());
    assertEquals(42, record.timestamp());
    assertEquals("hello", new String(record.value(), StandardCharsets.UTF_8));
    assertEquals(Map.of(SourceBatch.ORDER_GROUP, "g1", "source", "web"), record.headers());
  }

  @Test
  void aBatchsChangesShareOneOrderGroupAsLambdaRetriesTheShardFromAFailure() {
    Map<String, AttributeValue> key =
        Map.of("pk", AttributeValue.fromS("card#1"), "sk", AttributeValue.fromN("7"));
    ChangeRecord insert =
        new ChangeRecord(
            "cards", "e1", "INSERT", "100", Instant.ofEpochSecond(2), key, key, Map.of());
    ChangeRecord remove =
        new ChangeRecord(
            "cards",
            "e2",
            "REMOVE",
            "101",
            Instant.ofEpochSecond(3),
            Map.of("sk", AttributeValue.fromN("7"), "pk", AttributeValue.fromS("card#1")),
            Map.of(),
            key);

    Map<String, AttributeValue> other = Map.of("pk", AttributeValue.fromS("card#2"));
    ChangeRecord another =
        new ChangeRecord(
            "cards", "e3", "INSERT", "102", Instant.ofEpochSecond(4), other, other, Map.of());

    SourceBatch batch = SourceBatches.dynamoDb(List.of(insert, remove, another)).get(0);

    assertEquals("dynamodb:cards", batch.split());
    var headers = batch.records().stream().map(r -> r.headers()).toList();
    for (var h : headers) {
      assertEquals("dynamodb:cards", h.get(SourceBatch.ORDER_GROUP), "one group, any item");
    }
    assertEquals("REMOVE", headers.get(1).get(SourceBatches.EVENT_NAME));
    assertEquals(
        "{\"eventName\":\"REMOVE\",\"keys\":{\"pk\":\"card#1\",\"sk\":7},"
            + "\"oldImage\":{\"pk\":\"card#1\",\"sk\":7}}",
        new String(batch.records().get(1).value(), StandardCharsets.UTF_8));
  }
}
