package dev.statekit.stream.lambda.dynamodb;

import dev.statekit.StateKitException.Reason;
import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.concurrent.ParallelCalls;
import dev.statekit.stream.lambda.Attempt;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.DeferredMessage;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.state.StateStoreException;
import dev.statekit.stream.state.dynamodb.BatchItemCalls;
import dev.statekit.stream.state.dynamodb.Items;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementError;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A {@link BatchStore} in the application's DynamoDB table (see {@link ApplicationTable}):
 *
 * <ul>
 *   <li>a key: {@code pk = pipe#<pipeline>#<operator>#<key>}, {@code sk = batch}, {@code v}
 *       version, {@code st} state and {@code bk} bookkeeping (binary), {@code expires_at} (NULL
 *       where a key has no state or no expiry);
 *   <li>a split: {@code pk = pipe#<pipeline>#splits}, {@code sk = <split>}, its {@link SplitState}
 *       as attributes;
 *   <li>a batch attempt of an ordered split: {@code pk = pipe#<pipeline>#att#<split>}, {@code sk =
 *       <first offset, 128 digits>}, {@code f}, {@code l}, {@code at}, {@code expires_at};
 *   <li>the latest batch attempted in its shard's order: {@code pk =
 *       pipe#<pipeline>#order#<split>}, {@code sk = latest}, {@code f} its first offset (128
 *       digits), {@code expires_at}; written in one transaction with the attempt's item, on the
 *       condition that it holds no later offset ({@link #putAttemptInOrder});
 *   <li>a timer item: {@code pk = pipe#<pipeline>#timers}, {@code sk = <id>} (ordered by due time),
 *       {@code min}, {@code max}, {@code t} (binary);
 *   <li>a message's receipt (unordered splits): {@code pk = pipe#<pipeline>#rcpt#<split>#<message
 *       id>}, {@code sk = done}, {@code o} its outputs (binary), {@code expires_at};
 *   <li>a message whose outputs wait for the tick ({@link DeferredMessage}): {@code pk =
 *       pipe#<pipeline>#dfr#<split>}, {@code sk = <order>}, {@code m} its id.
 * </ul>
 *
 * Keys are read with BatchGetItem (100 a request, strongly consistent) and written with
 * BatchExecuteStatement, 25 a request, all requests at once: each key's statement is conditional on
 * the version read (INSERT for a new key, UPDATE ... WHERE v = read version for a known one), so
 * every write stays fenced on its own and costs what a conditional PutItem of the item costs, while
 * a batch of 1,000 keys needs 40 requests instead of 1,000 (which a function cannot start within
 * one network round trip). Splits are written with a conditional PutItem, timers with
 * BatchWriteItem. Throttled calls, statements and unprocessed items are retried with the {@link
 * RetryPolicy}'s backoff, then surface as {@link StateStoreException}.
 */
public final class DynamoDbBatchStore implements BatchStore {
  /** The sort key of key items. */
  public static final String KEY_SORT_KEY = "batch";

  /** The sort key of a split's order item. */
  static final String ORDER_SORT_KEY = "latest";

  /** The sort key of a message's receipt. */
  static final String RECEIPT_SORT_KEY = "done";

  private static final String PK = ApplicationTable.PARTITION_KEY;
  private static final int READ_CHUNK = 100;
  private static final String SK = ApplicationTable.SORT_KEY;

  /** A key's statement lost to another writer: INSERT of a key that exists, UPDATE on a version. */
  private static final Set<String> CONFLICT_CODES =
      Set.of("ConditionalCheckFailed", "DuplicateItem");

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final BatchItemCalls batches;
  private final KeyStatements statements;
  private final ParallelCalls parallel;

  /**
   * The store in {@code table}, with up to 128 requests in flight at once: a batch's key writes are
   * one round trip up to 3,200 distinct keys (threads start on demand and end when idle).
   */
  public DynamoDbBatchStore(DynamoDbClient dynamoDb, String table) {
    this(dynamoDb, table, RetryPolicy.defaults(), 128);
  }

  /**
   * The store in {@code table}.
   *
   * @param retry how throttled and failed requests are retried
   * @param parallelism how many requests (of up to 100 key reads or 25 key writes) are in flight at
   *     once
   */
  public DynamoDbBatchStore(
      DynamoDbClient dynamoDb, String table, RetryPolicy retry, int parallelism) {
    this.dynamoDb = Objects.requireNonNull(dynamoDb, "dynamoDb");
    this.table = Objects.requireNonNull(table, "table");
    Objects.requireNonNull(retry, "retry");
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1, got " + parallelism);
    }
    this.batches = new BatchItemCalls(dynamoDb, table, retry);
    this.statements = new KeyStatements(table);
    this.parallel = new ParallelCalls(parallelism);
  }

  @Override
  public Map<String, KeyItem> readKeys(String pipeline, String operator, Collection<String> keys) {
    String prefix = keyPrefix(pipeline, operator);
    Map<String, KeyItem> found = new HashMap<>();
    for (List<Map<String, AttributeValue>> items : readAll(prefix, keys, KEY_SORT_KEY)) {
      for (Map<String, AttributeValue> item : items) {
        String key = item.get(PK).s().substring(prefix.length());
        found.put(
            key,
            new KeyItem(
                key,
                Items.number(item.get("v")),
                Items.bytes(item.get("st")),
                Items.bytes(item.get("bk"))));
      }
    }
    return found;
  }

  /**
   * The items {@code prefix + id} / {@code sortKey} of {@code ids}, every request of 100 at once: a
   * batch's reads cost one round trip however many keys.
   */
  private List<List<Map<String, AttributeValue>>> readAll(
      String prefix, Collection<String> ids, String sortKey) {
    List<Map<String, AttributeValue>> request = new ArrayList<>();
    for (String id : new LinkedHashSet<>(ids)) {
      request.add(itemKey(prefix + id, sortKey));
    }
    return readKeys(request);
  }

  /** The items of {@code request}'s keys, every request of 100 at once. */
  private List<List<Map<String, AttributeValue>>> readKeys(
      List<Map<String, AttributeValue>> request) {
    List<Callable<List<Map<String, AttributeValue>>>> reads = new ArrayList<>();
    for (int from = 0; from < request.size(); from += READ_CHUNK) {
      List<Map<String, AttributeValue>> chunk =
          request.subList(from, Math.min(request.size(), from + READ_CHUNK));
      reads.add(() -> batches.get(chunk));
    }
    return parallel.all(reads);
  }

  @Override
  public Set<String> writeKeys(String pipeline, String operator, List<KeyWrite> writes) {
    String prefix = keyPrefix(pipeline, operator);
    Set<String> conflicts = ConcurrentHashMap.newKeySet();
    List<Callable<Void>> calls = new ArrayList<>();
    for (List<KeyWrite> request : KeyStatements.requests(writes)) {
      calls.add(
          () -> {
            conflicts.addAll(writeKeys(prefix, request));
            return null;
          });
    }
    parallel.all(calls);
    return Set.copyOf(conflicts);
  }

  /**
   * One request's keys, sent until no statement is left throttled.
   *
   * @return the keys whose condition failed
   */
  private List<String> writeKeys(String prefix, List<KeyWrite> writes) {
    List<String> conflicts = new ArrayList<>();
    List<KeyWrite> left =
        batches.untilDone(
            "writing key state",
            writes,
            pending -> sendStatements(prefix, pending, conflicts),
            List::isEmpty);
    batches.throwIfLeft(!left.isEmpty(), "writing key state");
    return conflicts;
  }

  /**
   * One BatchExecuteStatement; adds the keys whose condition failed to {@code conflicts}.
   *
   * @return the writes whose statements were throttled, to send again
   */
  private List<KeyWrite> sendStatements(
      String prefix, List<KeyWrite> writes, List<String> conflicts) {
    List<BatchStatementRequest> request = new ArrayList<>(writes.size());
    writes.forEach(write -> request.add(statements.statement(prefix + write.key(), write)));
    List<BatchStatementResponse> responses =
        batches
            .call(
                "writing key state",
                () -> dynamoDb.batchExecuteStatement(b -> b.statements(request)))
            .responses();
    List<KeyWrite> again = new ArrayList<>();
    // DynamoDB answers the statements in the order they were sent.
    for (int i = 0; i < writes.size(); i++) {
      BatchStatementError error = responses.get(i).error();
      String code = error == null ? null : error.codeAsString();
      if (code == null) {
        continue;
      }
      if (CONFLICT_CODES.contains(code)) {
        conflicts.add(writes.get(i).key());
      } else if (RetryPolicy.isPassingItemCode(code)) {
        again.add(writes.get(i));
      } else {
        throw new StateStoreException(
            Reason.INVALID_REQUEST,
            "DynamoDB refused to write key '"
                + writes.get(i).key()
                + "' to table '"
                + table
                + "': "
                + code
                + ", "
                + error.message());
      }
    }
    return again;
  }

  @Override
  public List<SplitState> readSplits(String pipeline) {
    List<SplitState> splits = new ArrayList<>();
    for (Map<String, AttributeValue> item : query(splitsKey(pipeline), null, Integer.MAX_VALUE)) {
      splits.add(SplitItems.read(item));
    }
    return splits;
  }

  @Override
  public void putAttempt(String pipeline, String split, Attempt attempt, long expiresAt) {
    Map<String, AttributeValue> item = SplitItems.attempt(attempt, expiresAt);
    item.putAll(itemKey(attemptsKey(pipeline, split), Attempt.sortKey(attempt.first())));
    batches.call(
        "recording a batch attempt", () -> dynamoDb.putItem(b -> b.tableName(table).item(item)));
  }

  /**
   * One TransactWriteItems: the split's order item takes the attempt's first offset if it holds
   * none later, and the attempt's item is put; a late request of a dead invocation is cancelled
   * whole once a later batch's attempt was recorded. Costs a transaction's write units for both
   * items (four for small items) instead of one.
   */
  @Override
  public boolean putAttemptInOrder(String pipeline, String split, Attempt attempt, long expiresAt) {
    Map<String, AttributeValue> item = SplitItems.attempt(attempt, expiresAt);
    item.putAll(itemKey(attemptsKey(pipeline, split), Attempt.sortKey(attempt.first())));
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":f", AttributeValue.fromS(Attempt.sortKey(attempt.first())));
    if (expiresAt > 0) {
      values.put(":e", Items.number(expiresAt));
    }
    String update =
        expiresAt > 0 ? "SET f = :f, " + ApplicationTable.TTL_ATTRIBUTE + " = :e" : "SET f = :f";
    TransactWriteItem order =
        TransactWriteItem.builder()
            .update(
                u ->
                    u.tableName(table)
                        .key(itemKey(orderKey(pipeline, split), ORDER_SORT_KEY))
                        .updateExpression(update)
                        .conditionExpression("attribute_not_exists(f) OR f <= :f")
                        .expressionAttributeValues(values))
            .build();
    TransactWriteItem put =
        TransactWriteItem.builder().put(p -> p.tableName(table).item(item)).build();
    try {
      batches.call(
          "recording a batch attempt",
          () -> dynamoDb.transactWriteItems(b -> b.transactItems(order, put)));
      return true;
    } catch (StateStoreException e) {
      if (e.getCause() instanceof TransactionCanceledException cancelled
          && !cancelled.cancellationReasons().isEmpty()
          && "ConditionalCheckFailed".equals(cancelled.cancellationReasons().get(0).code())) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public List<Attempt> latestAttempts(String pipeline, String split, int limit) {
    return queryAttempts(pipeline, split, null, null, limit);
  }

  @Override
  public List<Attempt> attempts(String pipeline, String split, String from, String to) {
    return queryAttempts(pipeline, split, from, to, Integer.MAX_VALUE);
  }

  /**
   * Attempts of {@code split}, strongly consistent: first offsets between {@code from} and {@code
   * to} in order (all pages), or, without them, the latest {@code limit}.
   */
  private List<Attempt> queryAttempts(
      String pipeline, String split, String from, String to, int limit) {
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":p", AttributeValue.fromS(attemptsKey(pipeline, split)));
    if (from != null) {
      values.put(":f", AttributeValue.fromS(Attempt.sortKey(from)));
      values.put(":t", AttributeValue.fromS(Attempt.sortKey(to)));
    }
    List<Attempt> found = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> after = start;
      QueryResponse page =
          batches.call(
              "reading batch attempts",
              () ->
                  dynamoDb.query(
                      b ->
                          b.tableName(table)
                              .consistentRead(true)
                              .exclusiveStartKey(after)
                              .scanIndexForward(from != null)
                              .limit(Math.min(limit - found.size(), 1000))
                              .keyConditionExpression(
                                  from == null ? "pk = :p" : "pk = :p AND sk BETWEEN :f AND :t")
                              .expressionAttributeValues(values)));
      page.items().forEach(item -> found.add(SplitItems.readAttempt(item)));
      start =
          page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
              ? page.lastEvaluatedKey()
              : null;
    } while (start != null && found.size() < limit);
    return found;
  }

  @Override
  public Map<String, byte[]> readReceipts(String pipeline, String split, Collection<String> ids) {
    String prefix = receiptPrefix(pipeline, split);
    Map<String, Map<String, AttributeValue>> mains = new HashMap<>();
    List<Map<String, AttributeValue>> partKeys = new ArrayList<>();
    for (List<Map<String, AttributeValue>> items : readAll(prefix, ids, RECEIPT_SORT_KEY)) {
      for (Map<String, AttributeValue> item : items) {
        String id = item.get(PK).s().substring(prefix.length());
        mains.put(id, item);
        for (int part = 1; part < ReceiptItems.parts(item); part++) {
          partKeys.add(
              itemKey(prefix + id, ReceiptItems.partSortKey(RECEIPT_SORT_KEY, item, part)));
        }
      }
    }
    Map<String, Map<String, AttributeValue>> parts = new HashMap<>();
    for (List<Map<String, AttributeValue>> items : readKeys(partKeys)) {
      for (Map<String, AttributeValue> item : items) {
        parts.put(item.get(PK).s() + "\n" + item.get(SK).s(), item);
      }
    }
    Map<String, byte[]> found = new HashMap<>();
    long now = System.currentTimeMillis() / 1000;
    mains.forEach(
        (id, main) -> {
          List<Map<String, AttributeValue>> rest = new ArrayList<>();
          for (int part = 1; part < ReceiptItems.parts(main); part++) {
            rest.add(
                parts.get(
                    prefix + id + "\n" + ReceiptItems.partSortKey(RECEIPT_SORT_KEY, main, part)));
          }
          byte[] outputs = ReceiptItems.outputs(main, rest, split + " " + id, now);
          if (outputs != null) {
            found.put(id, outputs);
          }
        });
    return found;
  }

  @Override
  public void writeReceipts(
      String pipeline, String split, Map<String, byte[]> receipts, long expiresAt) {
    String prefix = receiptPrefix(pipeline, split);
    List<WriteRequest> parts = new ArrayList<>();
    List<WriteRequest> mains = new ArrayList<>();
    receipts.forEach(
        (id, outputs) -> {
          ReceiptItems.Written items =
              ReceiptItems.items(itemKey(prefix + id, RECEIPT_SORT_KEY), SK, outputs, expiresAt);
          items.parts().forEach(item -> parts.add(put(item)));
          mains.add(put(items.own()));
        });
    // A receipt's other parts first: its own item names them, and a reader takes it whole.
    writeInChunks(parts);
    writeInChunks(mains);
  }

  private static WriteRequest put(Map<String, AttributeValue> item) {
    return WriteRequest.builder().putRequest(p -> p.item(item)).build();
  }

  private void writeInChunks(List<WriteRequest> requests) {
    List<Callable<Void>> calls = new ArrayList<>();
    for (int from = 0; from < requests.size(); from += BatchItemCalls.WRITE_BATCH) {
      List<WriteRequest> chunk =
          requests.subList(from, Math.min(requests.size(), from + BatchItemCalls.WRITE_BATCH));
      calls.add(
          () -> {
            batches.write(chunk);
            return null;
          });
    }
    parallel.all(calls);
  }

  @Override
  public boolean writeSplit(String pipeline, SplitState state) {
    Map<String, AttributeValue> item = SplitItems.write(state);
    item.putAll(itemKey(splitsKey(pipeline), state.split()));
    return putSplit(item, state.version() - 1);
  }

  @Override
  public void putTimers(String pipeline, List<TimerItem> timers) {
    List<WriteRequest> requests = new ArrayList<>();
    for (TimerItem timer : timers) {
      Map<String, AttributeValue> item = new HashMap<>(itemKey(timersKey(pipeline), timer.id()));
      item.put("min", Items.number(timer.minTime()));
      item.put("max", Items.number(timer.maxTime()));
      item.put("t", AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(timer.timers())));
      requests.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
    }
    batches.write(requests);
  }

  @Override
  public List<TimerItem> timersDueBy(String pipeline, long time, int limit) {
    List<TimerItem> due = new ArrayList<>();
    for (Map<String, AttributeValue> item :
        query(timersKey(pipeline), TimerItem.idBound(time), limit)) {
      due.add(
          new TimerItem(
              item.get(SK).s(),
              Items.number(item.get("min")),
              Items.number(item.get("max")),
              Items.bytes(item.get("t"))));
    }
    return due;
  }

  @Override
  public void deleteTimers(String pipeline, Collection<String> ids) {
    List<WriteRequest> requests = new ArrayList<>();
    for (String id : new LinkedHashSet<>(ids)) {
      Map<String, AttributeValue> key = itemKey(timersKey(pipeline), id);
      requests.add(WriteRequest.builder().deleteRequest(d -> d.key(key)).build());
    }
    batches.write(requests);
  }

  @Override
  public void putDeferred(String pipeline, String split, List<DeferredMessage> messages) {
    List<WriteRequest> requests = new ArrayList<>();
    for (DeferredMessage message : messages) {
      Map<String, AttributeValue> item =
          new HashMap<>(itemKey(deferredKey(pipeline, split), message.order()));
      item.put("m", AttributeValue.fromS(message.message()));
      requests.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
    }
    writeInChunks(requests);
  }

  @Override
  public List<DeferredMessage> deferred(String pipeline, String split, int limit) {
    List<DeferredMessage> found = new ArrayList<>();
    for (Map<String, AttributeValue> item : query(deferredKey(pipeline, split), null, limit)) {
      found.add(new DeferredMessage(item.get(SK).s(), Items.string(item.get("m"))));
    }
    return found;
  }

  @Override
  public DeferredMessage lastDeferred(String pipeline, String split) {
    QueryResponse page =
        batches.call(
            "reading the last deferred message",
            () ->
                dynamoDb.query(
                    b ->
                        b.tableName(table)
                            .consistentRead(true)
                            .scanIndexForward(false)
                            .limit(1)
                            .keyConditionExpression("pk = :p")
                            .expressionAttributeValues(
                                Map.of(":p", AttributeValue.fromS(deferredKey(pipeline, split))))));
    return page.items().isEmpty()
        ? null
        : new DeferredMessage(
            page.items().get(0).get(SK).s(), Items.string(page.items().get(0).get("m")));
  }

  @Override
  public void deleteDeferred(String pipeline, String split, Collection<String> orders) {
    List<WriteRequest> requests = new ArrayList<>();
    for (String order : new LinkedHashSet<>(orders)) {
      Map<String, AttributeValue> key = itemKey(deferredKey(pipeline, split), order);
      requests.add(WriteRequest.builder().deleteRequest(d -> d.key(key)).build());
    }
    writeInChunks(requests);
  }

  @Override
  public String toString() {
    return "DynamoDbBatchStore[" + table + "]";
  }

  /** A conditional put: true if written, false if the item's version was not {@code expected}. */
  private boolean putSplit(Map<String, AttributeValue> item, long expected) {
    try {
      batches.call(
          "writing split progress",
          () ->
              dynamoDb.putItem(
                  b -> {
                    b.tableName(table).item(item);
                    if (expected == 0) {
                      b.conditionExpression("attribute_not_exists(pk)");
                    } else {
                      b.conditionExpression("v = :v")
                          .expressionAttributeValues(Map.of(":v", Items.number(expected)));
                    }
                  }));
      return true;
    } catch (StateStoreException e) {
      if (e.reason() == Reason.CONFLICT) {
        return false;
      }
      throw e;
    }
  }

  /** Items of one partition, up to {@code limit}, with sort keys below {@code before} if given. */
  private List<Map<String, AttributeValue>> query(String pk, String before, int limit) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      int remaining = limit - items.size();
      QueryResponse page =
          batches.call(
              "querying " + pk,
              () ->
                  dynamoDb.query(
                      b -> {
                        b.tableName(table)
                            .consistentRead(true)
                            .exclusiveStartKey(from)
                            .limit(Math.min(remaining, 1000));
                        if (before == null) {
                          b.keyConditionExpression("pk = :p")
                              .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(pk)));
                        } else {
                          b.keyConditionExpression("pk = :p AND sk < :b")
                              .expressionAttributeValues(
                                  Map.of(
                                      ":p",
                                      AttributeValue.fromS(pk),
                                      ":b",
                                      AttributeValue.fromS(before)));
                        }
                      }));
      items.addAll(page.items());
      start =
          page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
              ? page.lastEvaluatedKey()
              : null;
    } while (start != null && items.size() < limit);
    return items;
  }

  private static String keyPrefix(String pipeline, String operator) {
    return "pipe#" + pipeline + "#" + operator + "#";
  }

  private static String splitsKey(String pipeline) {
    return "pipe#" + pipeline + "#splits";
  }

  private static String attemptsKey(String pipeline, String split) {
    return "pipe#" + pipeline + "#att#" + split;
  }

  private static String orderKey(String pipeline, String split) {
    return "pipe#" + pipeline + "#order#" + split;
  }

  private static String receiptPrefix(String pipeline, String split) {
    return "pipe#" + pipeline + "#rcpt#" + split + "#";
  }

  private static String deferredKey(String pipeline, String split) {
    return "pipe#" + pipeline + "#dfr#" + split;
  }

  private static String timersKey(String pipeline) {
    return "pipe#" + pipeline + "#timers";
  }

  private static Map<String, AttributeValue> itemKey(String pk, String sk) {
    return Map.of(PK, AttributeValue.fromS(pk), SK, AttributeValue.fromS(sk));
  }
}
