package dev.statekit.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.aws.kinesis.KinesisEgressSink;
import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.function.Address;
import dev.statekit.protocol.internal.wire.KafkaProducerRecord;
import dev.statekit.protocol.internal.wire.KinesisEgressRecord;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestStreams;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A StateFun Kafka or Kinesis egress record that leaves its topic or stream unset (proto3's "") and
 * goes through a route to one sink names no destination: the SQS sink sends it without one, the
 * Kinesis sink puts it into its default stream. Before, it named the destination "": SQS refused
 * the empty attribute (InvalidAttributeValue) and the Kinesis sink said it had no default stream,
 * on every try, holding the sender's later records behind it until it was dead-lettered.
 */
@ExtendWith(RealServers.class)
class EgressRecordWithoutTopicOrStreamIT {
  private static final TypeName EGRESS = TypeName.of("app", "out");
  private static final Address SOURCE = Address.of(TypeName.of("app", "fn"), "src");
  private static final RetryPolicy FAST =
      RetryPolicy.builder().maxAttempts(2).baseDelay(Duration.ZERO).maxDelay(Duration.ZERO).build();

  @Test
  void aKafkaRecordWithoutTopicRoutedToAnSqsSinkIsDelivered(SqsClient sqs) {
    String url =
        sqs.createQueue(b -> b.queueName("no-destination-" + UUID.randomUUID())).queueUrl();
    SqsEgressSink sink = new SqsEgressSink(sqs, url);
    EgressRoutes routes = EgressRoutes.builder().routeKafka(EGRESS, sink).build();
    byte[] kafka =
        KafkaProducerRecord.newBuilder()
            .setKey("user-1")
            .setValueBytes(ByteString.copyFromUtf8("hello"))
            .build()
            .toByteArray();
    EgressRecord record =
        routes
            .resolve(
                "r1",
                EGRESS,
                SOURCE,
                "type.googleapis.com/io.statefun.sdk.egress.KafkaProducerRecord",
                kafka)
            .record();
    sink.check(record);

    sink.deliver(List.of(record));

    List<Message> got =
        sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
            .messages();
    assertEquals(List.of("hello"), got.stream().map(Message::body).toList());
  }

  @Test
  void aKinesisRecordWithoutStreamGoesToTheSinksDefaultStream(KinesisClient kinesis)
      throws Exception {
    String stream = "no-destination-" + UUID.randomUUID().toString().substring(0, 8);
    TestStreams.create(kinesis, stream, 1);
    KinesisEgressSink sink = new KinesisEgressSink(kinesis, stream, FAST);
    EgressRoutes routes = EgressRoutes.builder().routeKinesis(EGRESS, sink).build();
    byte[] value =
        KinesisEgressRecord.newBuilder()
            .setPartitionKey("user-1")
            .setValueBytes(ByteString.copyFromUtf8("hello"))
            .build()
            .toByteArray();
    EgressRecord record =
        routes
            .resolve(
                "r1",
                EGRESS,
                SOURCE,
                "type.googleapis.com/io.statefun.sdk.egress.KinesisEgressRecord",
                value)
            .record();

    sink.deliver(List.of(record));

    String shard = kinesis.listShards(b -> b.streamName(stream)).shards().get(0).shardId();
    String iterator =
        kinesis
            .getShardIterator(
                b ->
                    b.streamName(stream)
                        .shardId(shard)
                        .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
            .shardIterator();
    assertEquals(
        List.of("hello"),
        kinesis.getRecords(b -> b.shardIterator(iterator)).records().stream()
            .map(r -> r.data().asUtf8String())
            .toList());
  }
}
