package dev.statekit.egress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.aws.kinesis.KinesisEgressSink;
import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.bus.QueueIds;
import dev.statekit.function.Address;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestQueue;
import dev.statekit.testservers.TestTable;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** Each sink against its real service. */
@ExtendWith(RealServers.class)
class EgressSinksIT {
  private static final TypeName EGRESS = TypeName.of("app", "out");
  private static final Address SOURCE = Address.of(TypeName.of("app", "fn"), "src");

  @Test
  void sqsRecordsAreTextWithAttributesAndAFifoQueueDropsRepeats(SqsClient sqs, TestQueue fifo) {
    String standard = sqs.createQueue(b -> b.queueName("egress-" + UUID.randomUUID())).queueUrl();
    List<EgressRecord> records =
        List.of(text("r1", "hello"), binary("r2", new byte[] {(byte) 0xff}));

    new SqsEgressSink(sqs, standard).deliver(records);
    new SqsEgressSink(sqs, fifo.url()).deliver(records);
    new SqsEgressSink(sqs, fifo.url()).deliver(records);

    List<Message> plain = receive(sqs, standard);
    assertEquals(List.of("hello", "/w=="), plain.stream().map(Message::body).toList());
    assertEquals("r1", plain.get(0).messageAttributes().get("statekit.record-id").stringValue());
    assertEquals("base64", plain.get(1).messageAttributes().get("statekit.encoding").stringValue());
    assertEquals(2, receive(sqs, fifo.url()).size(), "the second delivery was deduplicated");
  }

  @Test
  void aTableHoldsEachRecordOnceHoweverOftenItIsDelivered(
      DynamoDbClient dynamoDb, TestTable table) {
    DynamoDbTableSink sink = DynamoDbTableSink.onApplicationTable(dynamoDb, table.name());
    List<EgressRecord> records = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      records.add(text("t" + i, "record " + i));
    }

    sink.deliver(records);
    sink.deliver(records.subList(0, 10));

    var items =
        dynamoDb
            .query(
                b ->
                    b.tableName(table.name())
                        .keyConditionExpression("pk = :pk")
                        .expressionAttributeValues(
                            Map.of(":pk", AttributeValue.fromS("egress#app/out"))))
            .items();
    assertEquals(30, items.size());
    assertEquals("record 0", items.get(0).get("text").s());
    assertEquals(SOURCE.toString(), items.get(0).get("source").s());
  }

  /**
   * A text record that fits an item once is written with its value alone (its text repeated the
   * value, so the item was 500 KB and DynamoDB refused the whole BatchWriteItem, its neighbour too,
   * on every delivery); one too large even so is refused by id before anything is written.
   */
  @Test
  void aLargeTextRecordIsWrittenWithoutItsTextAndATooLargeOneIsRefusedByItself(
      DynamoDbClient dynamoDb, TestTable table) {
    TypeName egress = TypeName.of("app", "large-" + UUID.randomUUID().toString().substring(0, 8));
    DynamoDbTableSink sink = DynamoDbTableSink.onApplicationTable(dynamoDb, table.name());
    String large = "x".repeat(250_000);

    sink.deliver(List.of(text(egress, "small", "hello"), text(egress, "large", large)));

    var items = egressItems(dynamoDb, table, egress);
    assertEquals(List.of("large", "small"), items.stream().map(i -> i.get("sk").s()).toList());
    assertTrue(items.get(0).get("value").b().asByteArray().length >= 250_000);
    assertTrue(!items.get(0).containsKey("text"), "the value holds it");
    assertEquals("hello", items.get(1).get("text").s());

    EgressException refused =
        assertThrows(
            EgressException.class,
            () ->
                sink.deliver(
                    List.of(
                        text(egress, "next", "hi"), text(egress, "huge", "y".repeat(420_000)))));
    assertEquals(EgressException.Reason.INVALID_REQUEST, refused.reason());
    assertTrue(
        refused.getMessage().contains("Egress record huge makes an item of"), refused.getMessage());
    assertEquals(java.util.Optional.of("huge"), refused.refusedRecordId());
    assertEquals(2, egressItems(dynamoDb, table, egress).size(), "nothing written");
    // The same refusal without a delivery: what a batch pipeline sorts records by.
    sink.check(text(egress, "next", "hi"));
    assertEquals(
        java.util.Optional.of("huge"),
        assertThrows(
                EgressException.class, () -> sink.check(text(egress, "huge", "y".repeat(420_000))))
            .refusedRecordId());
  }

  /**
   * A record id past DynamoDB's sort key (a window result's id names its key, up to a kilobyte) is
   * written under its digest, the id kept in {@code record_id}, once however often it is delivered:
   * DynamoDB refused the whole BatchWriteItem, on every delivery.
   */
  @Test
  void aRecordIdPastDynamoDbsSortKeyIsWrittenUnderItsDigestOnce(
      DynamoDbClient dynamoDb, TestTable table) {
    TypeName egress = TypeName.of("app", "long-" + UUID.randomUUID().toString().substring(0, 8));
    DynamoDbTableSink sink = DynamoDbTableSink.onApplicationTable(dynamoDb, table.name());
    String id = "pipeline/1.0-window/" + "k".repeat(1_100) + "/0-100/0";

    sink.deliver(List.of(text(egress, id, "a window"), text(egress, "short", "beside it")));
    sink.deliver(List.of(text(egress, id, "a window"))); // delivered again

    var items = egressItems(dynamoDb, table, egress);
    assertEquals(2, items.size(), "each record once: " + items);
    var hashed = items.stream().filter(i -> i.containsKey("record_id")).findFirst().orElseThrow();
    assertEquals(id, hashed.get("record_id").s());
    assertTrue(hashed.get("sk").s().startsWith("sha256-"), hashed.get("sk").s());
    assertEquals("a window", hashed.get("text").s());
  }

  static EgressRecord text(TypeName egress, String id, String text) {
    return EgressRecord.builder(
            id, egress, SOURCE, "io.statefun.types/string", Types.stringType().serialize(text))
        .build();
  }

  static List<Map<String, AttributeValue>> egressItems(
      DynamoDbClient dynamoDb, TestTable table, TypeName egress) {
    return dynamoDb
        .query(
            b ->
                b.tableName(table.name())
                    .keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(
                        Map.of(":pk", AttributeValue.fromS("egress#" + egress.asString()))))
        .items();
  }

  @Test
  void kinesisGetsTheRecordsStreamAndPartitionKey(KinesisClient kinesis) throws Exception {
    String stream = "egress-" + UUID.randomUUID().toString().substring(0, 8);
    kinesis.createStream(b -> b.streamName(stream).shardCount(1));
    for (int i = 0; i < 50; i++) {
      StreamStatus status =
          kinesis.describeStream(b -> b.streamName(stream)).streamDescription().streamStatus();
      if (status == StreamStatus.ACTIVE) {
        break;
      }
      Thread.sleep(100);
    }
    KinesisEgressSink sink = new KinesisEgressSink(kinesis, null);

    sink.deliver(
        List.of(
            EgressRecord.builder("k1", EGRESS, SOURCE, "app/raw", utf8("one"))
                .destination(stream)
                .key("user-1")
                .build(),
            EgressRecord.builder("k2", EGRESS, SOURCE, "app/raw", utf8("two"))
                .destination(stream)
                .build()));

    String shard = kinesis.listShards(b -> b.streamName(stream)).shards().get(0).shardId();
    String iterator =
        kinesis
            .getShardIterator(
                b ->
                    b.streamName(stream)
                        .shardId(shard)
                        .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
            .shardIterator();
    var got = kinesis.getRecords(b -> b.shardIterator(iterator)).records();
    assertEquals(List.of("one", "two"), got.stream().map(r -> r.data().asUtf8String()).toList());
    assertEquals(
        List.of("user-1", SOURCE.toString()), got.stream().map(r -> r.partitionKey()).toList());
    var noStream =
        assertThrows(EgressException.class, () -> sink.deliver(List.of(text("k3", "three"))));
    assertTrue(noStream.getMessage().contains("names no Kinesis stream"), noStream.getMessage());
    assertEquals(
        java.util.Optional.empty(), noStream.refusedRecordId(), "the sink's configuration");
    EgressRecord huge =
        EgressRecord.builder("k4", EGRESS, SOURCE, "app/raw", new byte[1024 * 1024])
            .destination(stream)
            .build();
    assertEquals(
        java.util.Optional.of("k4"),
        assertThrows(EgressException.class, () -> sink.check(huge)).refusedRecordId());
  }

  @Test
  void anSqsRecordWhoseAttributesTakeItPastTheLimitIsRefusedWithTheReasonAndNothingSent(
      SqsClient sqs) {
    String url = sqs.createQueue(b -> b.queueName("egress-" + UUID.randomUUID())).queueUrl();
    // A long source address and destination: the attributes alone take well over 1 KiB.
    Address source = Address.of(TypeName.of("app", "fn"), "s".repeat(1500));
    String body = "x".repeat(QueueIds.MAX_MESSAGE_BYTES - 2000);
    EgressRecord record =
        EgressRecord.builder("big", EGRESS, source, "io.statefun.types/string", utf8(body))
            .destination("d".repeat(1500))
            .traceId("1-5759e988-bd862e3fe1be46a994272793")
            .build();

    EgressException refused =
        assertThrows(
            EgressException.class, () -> new SqsEgressSink(sqs, url).deliver(List.of(record)));

    assertEquals(EgressException.Reason.INVALID_REQUEST, refused.reason(), refused.getMessage());
    assertTrue(refused.getMessage().contains("more than the queue's"), refused.getMessage());
    assertEquals(java.util.Optional.of("big"), refused.refusedRecordId());
    assertEquals(List.of(), receive(sqs, url));
    assertEquals(
        java.util.Optional.of("big"),
        assertThrows(EgressException.class, () -> new SqsEgressSink(sqs, url).check(record))
            .refusedRecordId());
  }

  @Test
  void aFunctionAddressSinkSendsEnvelopesToTheTargetsGroup(SqsClient sqs, TestQueue queue) {
    Address target = Address.of(TypeName.of("app", "audit"), "all");

    new FunctionAddressSink(target, new SqsMessageBus(sqs, queue.url()))
        .deliver(List.of(text("f1", "hi")));

    Message sent = receive(sqs, queue.url()).get(0);
    assertTrue(sent.body().contains("\"target\":\"app/audit/all\""), sent.body());
    assertTrue(sent.body().contains("\"value\":\"hi\""), sent.body());
  }

  // SQS refuses a body or attribute holding characters outside its set (SqsRefusedCharactersIT):
  // text holding them travels as base64, attributes holding them with those characters escaped.
  @Test
  void anSqsRecordHoldingCharactersSqsRefusesArrivesWhole(SqsClient sqs, TestQueue fifo) {
    String standard = sqs.createQueue(b -> b.queueName("egress-" + UUID.randomUUID())).queueUrl();
    Address source = Address.of(TypeName.of("app", "fn"), "src\uFFFE");
    byte[] json = utf8("{\"a\": \"\u0001\"}");
    byte[] string = Types.stringType().serialize("a\uFFFEb\uFFFFc");
    List<EgressRecord> records =
        List.of(
            EgressRecord.builder("c1", EGRESS, source, "io.statefun.types/string", string).build(),
            EgressRecord.builder("c2", EGRESS, source, "app/json", json)
                .key("key\uFFFF")
                .destination("dest\u0001")
                .build());

    new SqsEgressSink(sqs, standard).deliver(records);
    new SqsEgressSink(sqs, fifo.url()).deliver(records);

    for (String url : List.of(standard, fifo.url())) {
      List<Message> got = receive(sqs, url);
      assertEquals(2, got.size(), url);
      for (int i = 0; i < 2; i++) {
        Message m = got.get(i);
        assertEquals("base64", m.messageAttributes().get("statekit.encoding").stringValue());
        assertArrayEquals(
            records.get(i).value(), java.util.Base64.getDecoder().decode(m.body()), "exact");
        assertEquals(
            "app/fn/src\\ufffe", m.messageAttributes().get("statekit.source").stringValue());
      }
      assertEquals(
          "dest\\u0001", got.get(1).messageAttributes().get("statekit.destination").stringValue());
    }
  }

  @Test
  void aFunctionAddressSinkCarriesCharactersSqsRefusesAsJsonEscapes(SqsClient sqs, TestQueue queue)
      throws Exception {
    Address target = Address.of(TypeName.of("app", "audit"), "all\uFFFE");

    new FunctionAddressSink(target, new SqsMessageBus(sqs, queue.url()))
        .deliver(List.of(text("f2", "odd \uFFFF\u0001")));

    Message sent = receive(sqs, queue.url()).get(0);
    var envelope = dev.statekit.json.PlainJson.readOne(sent.body());
    assertEquals(target.toString(), envelope.get("target").asText());
    assertEquals("odd \uFFFF\u0001", envelope.get("value").asText());
  }

  private static EgressRecord text(String id, String text) {
    return EgressRecord.builder(
            id, EGRESS, SOURCE, "io.statefun.types/string", Types.stringType().serialize(text))
        .build();
  }

  private static EgressRecord binary(String id, byte[] bytes) {
    return EgressRecord.builder(id, EGRESS, SOURCE, "app/raw", bytes).build();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static List<Message> receive(SqsClient sqs, String url) {
    List<Message> all = new ArrayList<>();
    for (int polls = 0; polls < 3; polls++) {
      int wait = polls == 0 ? 1 : 0;
      List<Message> batch =
          sqs.receiveMessage(
                  b ->
                      b.queueUrl(url)
                          .maxNumberOfMessages(10)
                          .waitTimeSeconds(wait)
                          .messageAttributeNames("All"))
              .messages();
      all.addAll(batch);
      batch.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
    }
    return all;
  }
}
