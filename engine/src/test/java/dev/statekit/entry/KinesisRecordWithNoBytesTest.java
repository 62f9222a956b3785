package dev.statekit.entry;

import static dev.statekit.entry.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.event.BatchOutcome;
import dev.statekit.event.KinesisRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kinesis accepts a record whose data blob is empty (PutRecord / PutRecordsRequestEntry "Data:
 * Length Constraints: Minimum length of 0"), and Lambda's event then carries it as {@code "data":
 * ""}. Such an event is one Kinesis sends, so the entry point must hand it on; refusing it fails
 * the whole batch (up to 500 records) on every retry until the event source mapping gives up on it
 * (MaximumRetryAttempts 10 in template.yaml), and the good records with it.
 */
class KinesisRecordWithNoBytesTest {

  @Test
  void aKinesisRecordWithAnEmptyDataBlobIsHandedOnWithTheOthers() {
    List<KinesisRecord> seen = new ArrayList<>();
    EntryPoint entry =
        EntryPoint.builder()
            .kinesisStream(
                "arn:aws:kinesis:eu-west-1:123456789012:stream/clicks",
                records -> {
                  seen.addAll(records);
                  return BatchOutcome.allSucceeded();
                })
            .build();
    // Three records of one shard, as Lambda sends them; the second was put with zero bytes.
    String event = new String(Events.kinesis("clicks", "1", "2", "3"));
    int second = event.indexOf("\"data\":\"aGVsbG8=\"", event.indexOf("\"sequenceNumber\":\"2\""));
    event =
        event.substring(0, second)
            + "\"data\":\"\""
            + event.substring(second + "\"data\":\"aGVsbG8=\"".length());

    byte[] answer = entry.invoke(utf8(event));

    assertEquals("{\"batchItemFailures\":[]}", new String(answer));
    assertEquals(3, seen.size(), "every record of the batch reaches the consumer");
    assertArrayEquals(new byte[0], seen.get(1).data(), "the empty record as Kinesis holds it");
  }
}
