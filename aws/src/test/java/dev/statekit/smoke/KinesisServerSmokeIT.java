package dev.statekit.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.testservers.RealServers;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;

/** The Kinesis API server keeps per-shard order, as pipelines rely on. */
@ExtendWith(RealServers.class)
class KinesisServerSmokeIT {

  @Test
  void recordsComeBackInOrderFromTheirShard(KinesisClient kinesis) throws InterruptedException {
    String stream = "smoke-" + UUID.randomUUID().toString().substring(0, 8);
    kinesis.createStream(b -> b.streamName(stream).shardCount(1));
    for (int i = 0; i < 50; i++) {
      var status = kinesis.describeStream(b -> b.streamName(stream)).streamDescription();
      if (status.streamStatus() == StreamStatus.ACTIVE) {
        break;
      }
      Thread.sleep(20);
    }
    for (String value : List.of("one", "two", "three")) {
      kinesis.putRecord(
          b -> b.streamName(stream).partitionKey("k").data(SdkBytes.fromUtf8String(value)));
    }

    String shard =
        kinesis
            .describeStream(b -> b.streamName(stream))
            .streamDescription()
            .shards()
            .get(0)
            .shardId();
    String iterator =
        kinesis
            .getShardIterator(
                b ->
                    b.streamName(stream)
                        .shardId(shard)
                        .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
            .shardIterator();
    List<String> values =
        kinesis.getRecords(b -> b.shardIterator(iterator)).records().stream()
            .map(Record::data)
            .map(SdkBytes::asUtf8String)
            .toList();

    assertEquals(List.of("one", "two", "three"), values);
  }
}
