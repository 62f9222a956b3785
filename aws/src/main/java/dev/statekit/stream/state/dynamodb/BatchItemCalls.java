package dev.statekit.stream.state.dynamodb;

import dev.statekit.StateKitException.Reason;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.stream.state.StateStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Batched reads and writes at DynamoDB's limits (100 keys per BatchGetItem, 25 writes per
 * BatchWriteItem). Failed calls and unprocessed items are retried with the {@link RetryPolicy}'s
 * backoff; what still fails surfaces as a {@link StateStoreException}.
 */
public final class BatchItemCalls {
  static final int READ_BATCH = 100;
  public static final int WRITE_BATCH = 25;

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final RetryPolicy retry;

  public BatchItemCalls(DynamoDbClient dynamoDb, String table, RetryPolicy retry) {
    this.dynamoDb = dynamoDb;
    this.table = table;
    this.retry = retry;
  }

  /** Reads items by key, strongly consistent; absent items are missing from the result. */
  public List<Map<String, AttributeValue>> get(List<Map<String, AttributeValue>> keys) {
    List<Map<String, AttributeValue>> found = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += READ_BATCH) {
      List<Map<String, AttributeValue>> batch =
          keys.subList(from, Math.min(keys.size(), from + READ_BATCH));
      Map<String, KeysAndAttributes> left =
          untilDone(
              "reading state",
              Map.of(table, KeysAndAttributes.builder().keys(batch).consistentRead(true).build()),
              pending -> {
                var response =
                    call(
                        "reading state",
                        () ->
                            dynamoDb.batchGetItem(
                                b ->
                                    b.requestItems(pending)
                                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)));
                found.addAll(response.responses().getOrDefault(table, List.of()));
                return response.unprocessedKeys();
              },
              Map::isEmpty);
      throwIfLeft(!left.isEmpty(), "reading state");
    }
    return found;
  }

  /** Writes puts and deletes, 25 per request. */
  public void write(List<WriteRequest> writes) {
    for (int from = 0; from < writes.size(); from += WRITE_BATCH) {
      Map<String, List<WriteRequest>> left =
          untilDone(
              "writing state",
              Map.of(table, writes.subList(from, Math.min(writes.size(), from + WRITE_BATCH))),
              pending ->
                  call(
                          "writing state",
                          () ->
                              dynamoDb.batchWriteItem(
                                  b ->
                                      b.requestItems(pending)
                                          .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)))
                      .unprocessedItems(),
              Map::isEmpty);
      throwIfLeft(!left.isEmpty(), "writing state");
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
    return call(
        "reading state",
        () -> {
          List<Map<String, AttributeValue>> items = new ArrayList<>();
          dynamoDb.queryPaginator(request).items().forEach(items::add);
          return items;
        });
  }

  /** Runs {@code request} with the retry policy; translates what still fails. */
  public <T> T call(String action, Supplier<T> request) {
    return translated(action, () -> retry.call(request));
  }

  /** {@link RetryPolicy#untilDone}, translating an interrupted backoff. */
  public <W> W untilDone(String action, W work, UnaryOperator<W> attempt, Predicate<W> done) {
    return translated(action, () -> retry.untilDone(work, attempt, done));
  }

  private <T> T translated(String action, Supplier<T> body) {
    try {
      return body.get();
    } catch (SdkException e) {
      throw DynamoDbErrors.translate(action, table, e);
    } catch (IllegalStateException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw new StateStoreException(
            Reason.UNAVAILABLE, "Interrupted while " + action + " on table '" + table + "'", e);
      }
      throw e;
    }
  }

  /** Throws if DynamoDB left items unprocessed through every attempt. */
  public void throwIfLeft(boolean left, String action) {
    if (left) {
      throw new StateStoreException(
          Reason.UNAVAILABLE,
          "DynamoDB left items unprocessed "
              + retry.maxAttempts()
              + " times while "
              + action
              + " on table '"
              + table
              + "': the table is throttled; retry later or raise its capacity");
    }
  }
}
