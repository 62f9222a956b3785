package dev.statekit.local.emulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.testservers.RealServers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.StreamDescriptionSummary;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;

/**
 * Lambda's Kinesis event source mapping invokes with a batch once it holds {@code BatchSize}
 * records, its batching window ends, or its payload reaches Lambda's 6 MB: a shard of large records
 * is handed over in several events, each within 6 MB. The serve's poller fills a batch by count
 * only, so 100 records of 100 KB (base64 in the event: 13 MB) went to the function as one event
 * that Lambda would never send, which the StateKit entry point refuses over its 8 MiB: the batch
 * fails on every retry locally where it is applied on Lambda.
 */
@ExtendWith(RealServers.class)
class KinesisBatchPayloadIT {
  @Test
  void aBatchOfLargeRecordsIsCutWithinLambdasPayloadLimit(KinesisClient kinesis)
      throws InterruptedException {
    String stream = "payload-" + UUID.randomUUID().toString().substring(0, 8);
    kinesis.createStream(b -> b.streamName(stream).shardCount(1));
    StreamDescriptionSummary summary = null;
    for (int i = 0; i < 100; i++) {
      summary = kinesis.describeStreamSummary(b -> b.streamName(stream)).streamDescriptionSummary();
      if (summary.streamStatus() == StreamStatus.ACTIVE) {
        break;
      }
      Thread.sleep(20);
    }
    List<String> written = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      byte[] data = new byte[100 * 1024];
      Arrays.fill(data, (byte) ('a' + i % 26));
      int n = i;
      written.add(
          kinesis
              .putRecord(
                  b ->
                      b.streamName(stream).partitionKey("k" + n).data(SdkBytes.fromByteArray(data)))
              .sequenceNumber());
    }
    List<Integer> sizes = new ArrayList<>();
    List<String> delivered = new ArrayList<>();
    Invoker function =
        event -> {
          sizes.add(event.length);
          delivered.addAll(EmulatedEvents.values(event, "sequenceNumber"));
          return EmulatedEvents.ALL_DONE;
        };
    KinesisPoller poller =
        new KinesisPoller(
            kinesis,
            new KinesisPoller.Settings(
                "Transactions",
                stream,
                summary.streamARN(),
                "us-east-1",
                500,
                0,
                false,
                true,
                -1,
                null),
            function,
            new Activity(new PrintWriter(new StringWriter())));

    for (int round = 0; round < 20 && delivered.size() < written.size(); round++) {
      poller.pollOnce();
    }

    assertEquals(written, delivered, "every record handed over once, in order");
    assertTrue(sizes.size() > 1, "the shard's 10 MB came in more than one event: " + sizes);
    assertTrue(
        sizes.stream().allMatch(size -> size <= EmulatedEvents.LAMBDA_PAYLOAD),
        "each event within Lambda's 6 MB, as the event source mapping cuts batches; sizes "
            + sizes);
  }
}
