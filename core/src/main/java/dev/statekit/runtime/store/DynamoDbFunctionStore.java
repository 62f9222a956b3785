package dev.statekit.runtime.store;

import static dev.statekit.aws.ApplicationTable.PARTITION_KEY;
import static dev.statekit.aws.ApplicationTable.SORT_KEY;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.function.Address;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The function store on one DynamoDB table shaped like {@link dev.statekit.aws.ApplicationTable}:
 * one item per address (see the README's "DynamoDB layout"), one item per timer. A batch's states
 * are read with BatchGetItem (eventually consistent, half the read cost); each address is committed
 * with one conditional PutItem, or, when timers change with it, one TransactWriteItems. Throttling
 * and server errors are retried with {@link RetryPolicy}.
 */
public final class DynamoDbFunctionStore implements FunctionStore {
  private static final int BATCH_GET_LIMIT = 100;

  /**
   * DynamoDB's limit with a little room: our size rules may differ from the service's by a few
   * bytes.
   */
  private static final long MAX_STATE_BYTES = DynamoDbItemSize.DYNAMODB_ITEM_LIMIT - 1024;

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final RetryPolicy retry;

  /** A store on {@code table}, retrying with {@link RetryPolicy#defaults()}. */
  public DynamoDbFunctionStore(DynamoDbClient dynamoDb, String table) {
    this(dynamoDb, table, RetryPolicy.defaults());
  }

  /** A store on {@code table}, retrying passing failures with {@code retry}. */
  public DynamoDbFunctionStore(DynamoDbClient dynamoDb, String table, RetryPolicy retry) {
    this.dynamoDb = Objects.requireNonNull(dynamoDb, "dynamoDb");
    this.table = Objects.requireNonNull(table, "table");
    this.retry = Objects.requireNonNull(retry, "retry");
    if (table.isBlank()) {
      throw new IllegalArgumentException("The table name is blank; pass the application's table");
    }
  }

  @Override
  public LoadResult load(Collection<Address> addresses, Collection<TimerKey> timers) {
    Map<String, Address> byKey = new HashMap<>();
    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    for (Address address : new HashSet<>(addresses)) {
      byKey.put(DynamoDbStateItems.partitionKey(address), address);
      keys.add(DynamoDbStateItems.key(address));
    }
    Map<String, TimerKey> timerByKey = new HashMap<>();
    for (TimerKey timer : new HashSet<>(timers)) {
      Map<String, AttributeValue> key = DynamoDbTimerItems.key(timer);
      timerByKey.put(key.get(PARTITION_KEY).s() + "|" + key.get(SORT_KEY).s(), timer);
      keys.add(key);
    }
    Map<Address, AddressState> states = new HashMap<>();
    Set<TimerKey> existing = new HashSet<>();
    for (int from = 0; from < keys.size(); from += BATCH_GET_LIMIT) {
      for (Map<String, AttributeValue> item :
          batchGet(keys.subList(from, Math.min(keys.size(), from + BATCH_GET_LIMIT)))) {
        String pk = item.get(PARTITION_KEY).s();
        Address address = byKey.get(pk);
        if (address != null && DynamoDbStateItems.SORT.equals(item.get(SORT_KEY).s())) {
          states.put(address, DynamoDbStateItems.fromItem(address, item));
        } else {
          TimerKey timer = timerByKey.get(pk + "|" + item.get(SORT_KEY).s());
          if (timer != null) {
            existing.add(timer);
          }
        }
      }
    }
    byKey.values().forEach(address -> states.putIfAbsent(address, AddressState.absent(address)));
    return new LoadResult(states, existing);
  }

  @Override
  public AddressState reload(Address address) {
    Map<String, AttributeValue> item =
        call(
            "read the state of " + address,
            () ->
                dynamoDb
                    .getItem(
                        b ->
                            b.tableName(table)
                                .key(DynamoDbStateItems.key(address))
                                .consistentRead(true))
                    .item());
    return DynamoDbStateItems.fromItem(address, item);
  }

  @Override
  public boolean timerExists(TimerKey key) {
    return call(
        "read timer " + key.asString(),
        () ->
            dynamoDb
                .getItem(
                    b ->
                        b.tableName(table)
                            .key(DynamoDbTimerItems.key(key))
                            .consistentRead(true)
                            .projectionExpression(PARTITION_KEY))
                .hasItem());
  }

  @Override
  public void commit(Commit commit) {
    AddressState state = commit.state();
    Map<String, AttributeValue> item = DynamoDbStateItems.toItem(state);
    long size = DynamoDbItemSize.of(item);
    if (size > MAX_STATE_BYTES) {
      throw new StateTooLargeException(state.address().toString(), size, MAX_STATE_BYTES);
    }
    boolean creates = commit.expectedVersion() == 0;
    String condition = creates ? "attribute_not_exists(" + PARTITION_KEY + ")" : "v = :expected";
    Map<String, AttributeValue> values =
        creates ? null : Map.of(":expected", DynamoDbStateItems.number(commit.expectedVersion()));
    String what = "commit version " + state.version() + " of " + state.address();
    try {
      if (commit.timerChanges().isEmpty()) {
        call(
            what,
            () ->
                dynamoDb.putItem(
                    b ->
                        b.tableName(table)
                            .item(item)
                            .conditionExpression(condition)
                            .expressionAttributeValues(values)));
      } else {
        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(
            TransactWriteItem.builder()
                .put(
                    p ->
                        p.tableName(table)
                            .item(item)
                            .conditionExpression(condition)
                            .expressionAttributeValues(values))
                .build());
        writes.addAll(DynamoDbTimerWrites.of(table, commit.timerChanges()));
        call(what, () -> dynamoDb.transactWriteItems(b -> b.transactItems(writes)));
      }
    } catch (ConditionalCheckFailedException e) {
      throw new CommitConflictException(
          "Version " + commit.expectedVersion() + " of " + state.address() + " is outdated", e);
    } catch (TransactionCanceledException e) {
      throw new CommitConflictException(
          "The commit of "
              + state.address()
              + " with its timers was cancelled: "
              + e.cancellationReasons(),
          e);
    }
  }

  @Override
  public void recordDelivery(Address address, long outboxVersion) {
    try {
      call(
          "record the delivery of " + address + "'s outbox",
          () ->
              dynamoDb.updateItem(
                  b ->
                      b.tableName(table)
                          .key(DynamoDbStateItems.key(address))
                          .updateExpression("SET obd = :version")
                          .conditionExpression("obv = :version")
                          .expressionAttributeValues(
                              Map.of(":version", DynamoDbStateItems.number(outboxVersion)))));
    } catch (ConditionalCheckFailedException superseded) {
      // A later commit replaced that outbox: nothing to record.
    }
  }

  @Override
  public List<Timer> dueTimers(int shard, long dueBy, long sentBefore, int limit) {
    List<Timer> due = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page =
          call(
              "read due timers of shard " + shard,
              () ->
                  dynamoDb.query(
                      b ->
                          b.tableName(table)
                              .keyConditionExpression("pk = :pk AND sk < :after")
                              .filterExpression("attribute_not_exists(sent) OR sent < :before")
                              .expressionAttributeValues(
                                  Map.of(
                                      ":pk",
                                          AttributeValue.fromS(
                                              DynamoDbTimerItems.partitionKey(shard)),
                                      ":after",
                                          AttributeValue.fromS(
                                              DynamoDbTimerItems.sortKeyAfter(dueBy)),
                                      ":before", DynamoDbStateItems.number(sentBefore)))
                              .limit(limit)
                              .exclusiveStartKey(from)));
      for (Map<String, AttributeValue> item : page.items()) {
        if (due.size() < limit) {
          due.add(DynamoDbTimerItems.fromItem(item));
        }
      }
      start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
    } while (start != null && due.size() < limit);
    return due;
  }

  @Override
  public void markSent(TimerKey key, long sentAtMillis) {
    try {
      call(
          "mark timer " + key.asString() + " sent",
          () ->
              dynamoDb.updateItem(
                  b ->
                      b.tableName(table)
                          .key(DynamoDbTimerItems.key(key))
                          .updateExpression("SET sent = :sent")
                          .conditionExpression("attribute_exists(pk)")
                          .expressionAttributeValues(
                              Map.of(":sent", DynamoDbStateItems.number(sentAtMillis)))));
    } catch (ConditionalCheckFailedException gone) {
      // Applied or cancelled meanwhile: nothing to mark.
    }
  }

  @Override
  public long sizeOf(AddressState state) {
    return DynamoDbStateItems.sizeOf(state);
  }

  @Override
  public long maxStateBytes() {
    return MAX_STATE_BYTES;
  }

  @Override
  public String toString() {
    return "DynamoDbFunctionStore[" + table + "]";
  }

  private List<Map<String, AttributeValue>> batchGet(List<Map<String, AttributeValue>> keys) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, KeysAndAttributes> pending =
        Map.of(table, KeysAndAttributes.builder().keys(keys).consistentRead(false).build());
    for (int attempt = 1; !pending.isEmpty(); attempt++) {
      Map<String, KeysAndAttributes> request = pending;
      BatchGetItemResponse response =
          call(
              "read " + keys.size() + " items",
              () -> dynamoDb.batchGetItem(b -> b.requestItems(request)));
      items.addAll(response.responses().getOrDefault(table, List.of()));
      pending = new LinkedHashMap<>(response.unprocessedKeys());
      pending.values().removeIf(k -> !k.hasKeys() || k.keys().isEmpty());
      if (!pending.isEmpty()) {
        // Unprocessed keys are DynamoDB's way of throttling a batch: back off like a retry.
        if (attempt >= retry.maxAttempts()) {
          throw new StoreUnavailableException(
              "DynamoDB left keys of table " + table + " unread after " + attempt + " attempts",
              null);
        }
        retry.pause(attempt);
      }
    }
    return items;
  }

  private <T> T call(String what, Supplier<T> call) {
    try {
      return retry.call(call);
    } catch (ConditionalCheckFailedException | TransactionCanceledException e) {
      throw e;
    } catch (SdkException e) {
      if (RetryPolicy.isPassing(e)) {
        throw new StoreUnavailableException(
            "DynamoDB kept refusing to " + what + " in table " + table + ": " + e.getMessage(), e);
      }
      throw new StoreException(
          StoreException.Reason.INVALID_REQUEST,
          "DynamoDB failed to " + what + " in table " + table + ": " + e.getMessage(),
          e);
    }
  }
}
