package dev.statekit.aws.dynamodb;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.bus.QueueIds;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.runtime.store.DynamoDbItemSize;
import dev.statekit.stream.state.StateItemLimits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Writes each record as one DynamoDB item keyed by the record id, so a repeated delivery rewrites
 * the same item: every record is in the table exactly once. Items hold {@code egress}, {@code
 * source}, {@code type}, {@code value} (bytes), {@code text} (when the value is text and the item
 * has room for it beside the value: {@code value} is the record), and {@code key} / {@code
 * destination} when the record has them. A record id longer than DynamoDB's key takes, or one that
 * starts with {@code sha256-}, is keyed by {@code sha256-<digest>} instead, the id itself in {@code
 * record_id}. A record whose item would pass DynamoDB's 400 KB even without {@code text} is refused
 * by id before anything is written, and so is one holding half a character (an unpaired surrogate)
 * in its id, key, source or destination, which DynamoDB cannot keep. Written with BatchWriteItem,
 * 25 at a time; throttled items are written again with backoff.
 */
public final class DynamoDbTableSink implements EgressSink {
  private static final int MAX_BATCH = 25;

  /** DynamoDB's partition and sort keys hold 2,048 and 1,024 bytes. */
  private static final int MAX_PARTITION_KEY = 2048;

  private static final int MAX_SORT_KEY = 1024;

  /** What an item's key is for a record id keyed by its digest; the id is then in RECORD_ID. */
  private static final String DIGEST = "sha256-";

  private static final String RECORD_ID = "record_id";

  /** The attributes the sink writes beside the key: a key attribute may not be one of them. */
  private static final java.util.Set<String> WRITTEN =
      java.util.Set.of(
          "egress", "source", "type", "value", "text", "key", "destination", RECORD_ID);

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final String partitionKey;
  private final String sortKey;
  private final RetryPolicy retry;

  private DynamoDbTableSink(
      DynamoDbClient dynamoDb,
      String table,
      String partitionKey,
      String sortKey,
      RetryPolicy retry) {
    this.dynamoDb = Objects.requireNonNull(dynamoDb, "dynamoDb");
    this.table = Objects.requireNonNull(table, "table");
    this.partitionKey = Objects.requireNonNull(partitionKey, "partitionKey");
    this.sortKey = sortKey;
    this.retry = Objects.requireNonNull(retry, "retry");
  }

  /**
   * Writes to a table whose (only) key attribute {@code keyAttribute} takes the record id.
   *
   * @throws IllegalArgumentException if {@code keyAttribute} is one the sink writes (its value
   *     would overwrite the key)
   */
  public static DynamoDbTableSink keyedById(
      DynamoDbClient dynamoDb, String table, String keyAttribute) {
    if (WRITTEN.contains(keyAttribute)) {
      throw new IllegalArgumentException(
          "The table's key attribute '"
              + keyAttribute
              + "' is one the sink writes ("
              + new java.util.TreeSet<>(WRITTEN)
              + "): key the table by another, such as id");
    }
    return new DynamoDbTableSink(dynamoDb, table, keyAttribute, null, RetryPolicy.defaults());
  }

  /**
   * Writes to a table shaped like the application table ({@code pk}, {@code sk}): {@code pk =
   * egress#<egress>}, {@code sk = <record id>}, so one egress's records can be queried together.
   */
  public static DynamoDbTableSink onApplicationTable(DynamoDbClient dynamoDb, String table) {
    return new DynamoDbTableSink(dynamoDb, table, "pk", "sk", RetryPolicy.defaults());
  }

  /**
   * The record's id as the item's key, or, for an id past what DynamoDB's key holds (a window
   * result's id names its key, which may be up to a kilobyte), {@code sha256-} and its digest, the
   * same on every delivery: the item is still written once, and keeps the id in {@code id}.
   */
  static String itemId(String id, int maxBytes) {
    // An id that itself starts with the prefix is keyed by its digest too, so that a record whose
    // id is the text of another's digest never shares that one's item.
    if (!id.startsWith(DIGEST)
        && (id.length() * 3L <= maxBytes
            || id.getBytes(StandardCharsets.UTF_8).length <= maxBytes)) {
      return id;
    }
    return DIGEST + QueueIds.sha256(id);
  }

  @Override
  public void deliver(List<EgressRecord> records) {
    // A batch may hold a key once: a record delivered twice in one call is written once.
    Map<String, EgressRecord> unique = new LinkedHashMap<>();
    records.forEach(record -> unique.put(record.id(), record));
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    for (EgressRecord record : unique.values()) {
      items.add(item(record));
    }
    for (int from = 0; from < items.size(); from += MAX_BATCH) {
      write(items.subList(from, Math.min(items.size(), from + MAX_BATCH)));
    }
  }

  /** Refuses a record whose item would be past DynamoDB's 400 KB. */
  @Override
  public void check(EgressRecord record) {
    item(record);
  }

  @Override
  public String toString() {
    return "DynamoDbTableSink[" + table + "]";
  }

  private void write(List<Map<String, AttributeValue>> records) {
    List<WriteRequest> writes = new ArrayList<>();
    for (Map<String, AttributeValue> item : records) {
      writes.add(
          WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
    }
    Map<String, List<WriteRequest>> pending = Map.of(table, writes);
    for (int attempt = 1; !pending.isEmpty(); attempt++) {
      Map<String, List<WriteRequest>> request = pending;
      BatchWriteItemResponse response;
      try {
        response = retry.call(() -> dynamoDb.batchWriteItem(b -> b.requestItems(request)));
      } catch (SdkException e) {
        throw new EgressException(
            RetryPolicy.reasonOf(e),
            "DynamoDB did not take "
                + records.size()
                + " egress records for table "
                + table
                + ": "
                + e.getMessage(),
            e);
      }
      pending = new HashMap<>(response.unprocessedItems());
      pending.values().removeIf(List::isEmpty);
      if (!pending.isEmpty()) {
        if (attempt >= retry.maxAttempts()) {
          throw new EgressException(
              "DynamoDB kept leaving egress records of table " + table + " unwritten", null);
        }
        retry.pause(attempt);
      }
    }
  }

  /**
   * Refuses a record an attribute of whose item holds half a character (an unpaired surrogate, as
   * cutting a string inside an emoji leaves): DynamoDB keeps strings as UTF-8, which has no bytes
   * for it, and refuses the whole request on every try, naming no item.
   */
  private static void refuseHalfCharacters(EgressRecord record, Map<String, AttributeValue> item) {
    for (Map.Entry<String, AttributeValue> attribute : new java.util.TreeMap<>(item).entrySet()) {
      String text = attribute.getValue().s();
      int at = text == null ? -1 : StateItemLimits.halfCharacterAt(text);
      if (at >= 0) {
        throw EgressException.refusing(
            record.id(),
            "Egress record "
                + record.id()
                + " has half a character (an unpaired surrogate) at index "
                + at
                + " of its item's attribute '"
                + attribute.getKey()
                + "', which DynamoDB cannot keep; cut keys and ids at whole characters (code"
                + " points)");
      }
    }
  }

  private Map<String, AttributeValue> item(EgressRecord record) {
    Map<String, AttributeValue> item = new HashMap<>();
    String itemId = itemId(record.id(), sortKey == null ? MAX_PARTITION_KEY : MAX_SORT_KEY);
    if (sortKey == null) {
      item.put(partitionKey, AttributeValue.fromS(itemId));
    } else {
      item.put(partitionKey, AttributeValue.fromS("egress#" + record.egress().asString()));
      item.put(sortKey, AttributeValue.fromS(itemId));
    }
    if (!itemId.equals(record.id())) {
      item.put(RECORD_ID, AttributeValue.fromS(record.id()));
    }
    item.put("egress", AttributeValue.fromS(record.egress().asString()));
    item.put("source", AttributeValue.fromS(record.source().toString()));
    item.put("type", AttributeValue.fromS(record.valueTypeName()));
    item.put("value", AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(record.value())));
    record
        .text()
        .filter(t -> !t.isEmpty())
        .ifPresent(t -> item.put("text", AttributeValue.fromS(t)));
    record.key().ifPresent(key -> item.put("key", AttributeValue.fromS(key)));
    record.destination().ifPresent(d -> item.put("destination", AttributeValue.fromS(d)));
    refuseHalfCharacters(record, item);
    if (DynamoDbItemSize.of(item) > DynamoDbItemSize.DYNAMODB_ITEM_LIMIT) {
      // The text repeats the value: a large text record fits once, not twice.
      item.remove("text");
    }
    long size = DynamoDbItemSize.of(item);
    if (size > DynamoDbItemSize.DYNAMODB_ITEM_LIMIT) {
      throw EgressException.refusing(
          record.id(),
          "Egress record "
              + record.id()
              + " makes an item of "
              + size
              + " bytes, more than DynamoDB's "
              + DynamoDbItemSize.DYNAMODB_ITEM_LIMIT
              + "; send large data elsewhere (e.g. S3) and a reference through the egress");
    }
    return item;
  }
}
