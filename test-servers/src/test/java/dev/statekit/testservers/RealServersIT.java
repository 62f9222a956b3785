package dev.statekit.testservers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** What a user's integration test gets from the extension, on the real servers. */
@ExtendWith(RealServers.class)
class RealServersIT {

  @Test
  void theTableHasAnApplicationTablesShapeAndTakesItems(DynamoDbClient dynamoDb, TestTable table) {
    TableDescription description = dynamoDb.describeTable(b -> b.tableName(table.name())).table();
    assertEquals(
        Map.of(TestTable.PARTITION_KEY, KeyType.HASH, TestTable.SORT_KEY, KeyType.RANGE),
        Map.of(
            description.keySchema().get(0).attributeName(),
            description.keySchema().get(0).keyType(),
            description.keySchema().get(1).attributeName(),
            description.keySchema().get(1).keyType()));
    var ttl = dynamoDb.describeTimeToLive(b -> b.tableName(table.name())).timeToLiveDescription();
    assertEquals(TestTable.TTL_ATTRIBUTE, ttl.attributeName());
    assertEquals(TimeToLiveStatus.ENABLED, ttl.timeToLiveStatus());

    dynamoDb.putItem(
        b ->
            b.tableName(table.name())
                .item(
                    Map.of(
                        "pk", AttributeValue.fromS("a"),
                        "sk", AttributeValue.fromS("b"))));
    assertEquals(1, dynamoDb.scan(b -> b.tableName(table.name())).count());
  }

  @Test
  void creatingTheTableAgainFindsIt(DynamoDbClient dynamoDb, TestTable table) {
    assertEquals(table, TestTable.create(dynamoDb, table.name()));
  }

  @Test
  void theQueueIsFifoWithExplicitDeduplication(SqsClient sqs, TestQueue queue) {
    var attributes =
        sqs.getQueueAttributes(b -> b.queueUrl(queue.url()).attributeNames(QueueAttributeName.ALL))
            .attributes();
    assertEquals("true", attributes.get(QueueAttributeName.FIFO_QUEUE));
    assertEquals("false", attributes.get(QueueAttributeName.CONTENT_BASED_DEDUPLICATION));
    assertTrue(queue.name().endsWith(".fifo"), queue.name());

    sqs.sendMessage(
        b ->
            b.queueUrl(queue.url())
                .messageBody("hello")
                .messageGroupId("g")
                .messageDeduplicationId("d1"));
    // The same deduplication id again is dropped: the queue does not deduplicate by content.
    sqs.sendMessage(
        b ->
            b.queueUrl(queue.url())
                .messageBody("hello")
                .messageGroupId("g")
                .messageDeduplicationId("d1"));
    var received =
        sqs.receiveMessage(b -> b.queueUrl(queue.url()).maxNumberOfMessages(10)).messages();
    assertEquals(List.of("hello"), received.stream().map(m -> m.body()).toList());
  }

  @Test
  void eachTestClassGetsItsOwnTableAndQueue(TestTable table, TestQueue queue) {
    assertTrue(table.name().startsWith("t-realserversit-"), table.name());
    assertTrue(queue.name().startsWith("q-realserversit-"), queue.name());
    assertNotEquals(table.name(), queue.name());
  }

  @Test
  void streamsAreReadyWhenMade(KinesisClient kinesis) throws InterruptedException {
    String name = "s-realserversit-" + System.nanoTime();
    TestStreams.create(kinesis, name, 2);
    kinesis.putRecord(b -> b.streamName(name).partitionKey("k").data(SdkBytes.fromUtf8String("x")));
    assertEquals(2, kinesis.listShards(b -> b.streamName(name)).shards().size());
  }
}
