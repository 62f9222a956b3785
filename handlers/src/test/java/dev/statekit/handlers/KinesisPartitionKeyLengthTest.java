package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.entry.EntryPoint;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.KinesisRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kinesis bounds a partition key to 256 characters as its API counts them: Unicode scalar values
 * (the Smithy {@code length} trait of {@code PutRecord}'s {@code PartitionKey}), so a key of 256
 * emoji is one Kinesis takes, 512 UTF-16 units in a Java string. Such a record is one its source
 * sent: the entry point must hand it on, not refuse the whole batch it came in (Lambda would retry
 * the batch until MaximumRetryAttempts and then skip every record of it).
 */
class KinesisPartitionKeyLengthTest {
  private static final String STREAM = "arn:aws:kinesis:eu-west-1:123456789012:stream/clicks";

  /** A character outside the Basic Multilingual Plane: one scalar value, two UTF-16 units. */
  private static final String EMOJI = new String(Character.toChars(0x1F600));

  private final List<KinesisRecord> seen = new ArrayList<>();

  private final StateKitHandler handler =
      new StateKitHandler(
          EntryPoint.builder()
              .kinesisStream(
                  STREAM,
                  records -> {
                    seen.addAll(records);
                    return BatchOutcome.allSucceeded();
                  })
              .build(),
          dev.statekit.telemetry.MetricsSink.none());

  private static String record(String sequence, String partitionKey) {
    return "{\"kinesis\":{\"kinesisSchemaVersion\":\"1.0\",\"partitionKey\":\""
        + partitionKey
        + "\",\"sequenceNumber\":\""
        + sequence
        + "\",\"data\":\"aGVsbG8=\",\"approximateArrivalTimestamp\":1700000000.25},"
        + "\"eventSource\":\"aws:kinesis\",\"eventVersion\":\"1.0\","
        + "\"eventID\":\"shardId-000000000000:"
        + sequence
        + "\",\"eventName\":\"aws:kinesis:record\",\"invokeIdentityArn\":"
        + "\"arn:aws:iam::123456789012:role/clicks\",\"awsRegion\":\"eu-west-1\","
        + "\"eventSourceARN\":\""
        + STREAM
        + "\"}";
  }

  private String invoke(String... records) throws Exception {
    byte[] event =
        ("{\"Records\":[" + String.join(",", records) + "]}").getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(event), out, null);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aPartitionKeyOf256CharactersOutsideTheBmpIsHandedOn() throws Exception {
    String key = EMOJI.repeat(256);

    String answer = invoke(record("100", "card-1"), record("101", key), record("102", "card-2"));

    assertEquals("{\"batchItemFailures\":[]}", answer);
    assertEquals(3, seen.size());
    assertEquals(key, seen.get(1).partitionKey());
  }

  @Test
  void aPartitionKeyPast256CharactersIsStillRefusedNamingTheField() {
    RuntimeException refused =
        assertThrows(RuntimeException.class, () -> invoke(record("100", EMOJI.repeat(257))));

    assertTrue(
        refused.getMessage().contains("MalformedEventException")
            && refused.getMessage().contains("Records[0].kinesis.partitionKey"),
        refused.getMessage());
    assertEquals(0, seen.size());
  }
}
