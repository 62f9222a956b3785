package dev.statekit.event;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One record of a DynamoDB Streams event: a change to one item.
 *
 * @param tableName the table that changed (from {@code eventSourceARN})
 * @param eventId the event's id
 * @param eventName {@code INSERT}, {@code MODIFY} or {@code REMOVE}
 * @param sequenceNumber the change's sequence number in its shard; a failure is answered with it
 * @param createdAt when the change was made (DynamoDB rounds it to the second)
 * @param keys the item's key attributes
 * @param newImage the item after the change, if the stream carries new images (else empty)
 * @param oldImage the item before the change, if the stream carries old images (else empty)
 */
public record ChangeRecord(
    String tableName,
    String eventId,
    String eventName,
    String sequenceNumber,
    Instant createdAt,
    Map<String, AttributeValue> keys,
    Map<String, AttributeValue> newImage,
    Map<String, AttributeValue> oldImage) {
  /** Checks and copies the parts. */
  public ChangeRecord {
    Objects.requireNonNull(tableName, "tableName");
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(eventName, "eventName");
    Objects.requireNonNull(sequenceNumber, "sequenceNumber");
    Objects.requireNonNull(createdAt, "createdAt");
    keys = Map.copyOf(keys);
    newImage = Map.copyOf(newImage);
    oldImage = Map.copyOf(oldImage);
  }

  /**
   * The name of a table given by name, table ARN or stream ARN ({@code
   * arn:aws:dynamodb:region:account:table/name/stream/label}).
   */
  public static String tableName(String nameOrArn) {
    Objects.requireNonNull(nameOrArn, "table");
    String s = nameOrArn.trim();
    int table = s.indexOf(":table/");
    if (!s.startsWith("arn:") || table < 0) {
      return s;
    }
    String rest = s.substring(table + ":table/".length());
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }
}
