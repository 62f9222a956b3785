package dev.statekit.stream.state.dynamodb;

import dev.statekit.stream.state.StateStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Batched reads and writes at DynamoDB's limits (100 keys per BatchGetItem, 25 writes per
 * BatchWriteItem), retrying unprocessed items with exponential backoff.
 */
final class Batches {
  static final int READ_BATCH = 100;
  static final int WRITE_BATCH = 25;
  private static final int ATTEMPTS = 8;

  private final DynamoDbClient dynamoDb;
  private final String table;

  Batches(DynamoDbClient dynamoDb, String table) {
    this.dynamoDb = dynamoDb;
    this.table = table;
  }

  /** Reads items by key, strongly consistent; absent items are missing from the result. */
  List<Map<String, AttributeValue>> get(List<Map<String, AttributeValue>> keys) {
    List<Map<String, AttributeValue>> found = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += READ_BATCH) {
      List<Map<String, AttributeValue>> batch =
          keys.subList(from, Math.min(keys.size(), from + READ_BATCH));
      Map<String, KeysAndAttributes> request =
          Map.of(table, KeysAndAttributes.builder().keys(batch).consistentRead(true).build());
      for (int attempt = 1; !request.isEmpty(); attempt++) {
        Map<String, KeysAndAttributes> pending = request;
        BatchGetItemResponse response =
            call(
                "reading state",
                () ->
                    dynamoDb.batchGetItem(
                        b ->
                            b.requestItems(pending)
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)));
        found.addAll(response.responses().getOrDefault(table, List.of()));
        request = response.unprocessedKeys();
        backoffIfPending(!request.isEmpty(), attempt, "reading state");
      }
    }
    return found;
  }

  /** Writes puts and deletes, 25 per request. */
  void write(List<WriteRequest> writes) {
    for (int from = 0; from < writes.size(); from += WRITE_BATCH) {
      Map<String, List<WriteRequest>> request =
          Map.of(table, writes.subList(from, Math.min(writes.size(), from + WRITE_BATCH)));
      for (int attempt = 1; !request.isEmpty(); attempt++) {
        Map<String, List<WriteRequest>> pending = request;
        BatchWriteItemResponse response =
            call(
                "writing state",
                () ->
                    dynamoDb.batchWriteItem(
                        b ->
                            b.requestItems(pending)
                                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)));
        request = response.unprocessedItems();
        backoffIfPending(!request.isEmpty(), attempt, "writing state");
      }
    }
  }

  /** Every item of partition {@code pk} whose sort key starts with {@code prefix}. */
  List<Map<String, AttributeValue>> query(String pk, String prefix) {
    QueryRequest request =
        QueryRequest.builder()
            .tableName(table)
            .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
            .expressionAttributeValues(
                Map.of(":pk", AttributeValue.fromS(pk), ":prefix", AttributeValue.fromS(prefix)))
            .consistentRead(true)
            .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
            .build();
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    call(
        "reading state",
        () -> {
          dynamoDb.queryPaginator(request).items().forEach(items::add);
          return null;
        });
    return items;
  }

  private void backoffIfPending(boolean pending, int attempt, String action) {
    if (!pending) {
      return;
    }
    if (attempt >= ATTEMPTS) {
      throw new StateStoreException(
          "DynamoDB left items unprocessed "
              + attempt
              + " times while "
              + action
              + " on table '"
              + table
              + "': the table is throttled; retry later or raise its capacity",
          true);
    }
    try {
      Thread.sleep(Math.min(2000, 25L << attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StateStoreException("Interrupted while " + action, true, e);
    }
  }

  <T> T call(String action, java.util.function.Supplier<T> request) {
    try {
      return request.get();
    } catch (SdkException e) {
      throw DynamoDbErrors.translate(action, table, e);
    }
  }
}
