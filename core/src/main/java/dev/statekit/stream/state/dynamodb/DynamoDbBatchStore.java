package dev.statekit.stream.state.dynamodb;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.runtime.internal.ParallelCalls;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.TimerItem;
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
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A {@link BatchStore} in the application's DynamoDB table (see {@link ApplicationTable}):
 *
 * <ul>
 *   <li>a key: {@code pk = pipe#<pipeline>#<operator>#<key>}, {@code sk = batch}, {@code v}
 *       version, {@code st} state and {@code bk} bookkeeping (binary), {@code expires_at};
 *   <li>a split: {@code pk = pipe#<pipeline>#splits}, {@code sk = <split>}, its {@link SplitState}
 *       as attributes;
 *   <li>a timer item: {@code pk = pipe#<pipeline>#timers}, {@code sk = <id>} (ordered by due time),
 *       {@code min}, {@code max}, {@code t} (binary).
 * </ul>
 *
 * Keys are read with BatchGetItem (100 a request, strongly consistent) and written with one
 * conditional PutItem each, all at once; splits with a conditional PutItem; timers with
 * BatchWriteItem. Throttling and server errors are retried with backoff ({@link RetryPolicy}), then
 * surface as {@code StateStoreException}.
 */
public final class DynamoDbBatchStore implements BatchStore {
  /** The sort key of key items. */
  public static final String KEY_SORT_KEY = "batch";

  private static final String PK = ApplicationTable.PARTITION_KEY;
  private static final int READ_CHUNK = 100;
  private static final String SK = ApplicationTable.SORT_KEY;

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final Batches batches;
  private final RetryPolicy retry;
  private final ParallelCalls parallel;

  /**
   * The store in {@code table}, writing up to 512 keys at once: a batch's key writes are one round
   * trip up to that many distinct keys (threads start on demand and end when idle; Lambda allows
   * 1,024 open files, sockets included).
   */
  public DynamoDbBatchStore(DynamoDbClient dynamoDb, String table) {
    this(dynamoDb, table, RetryPolicy.defaults(), 512);
  }

  /**
   * The store in {@code table}.
   *
   * @param retry how throttled and failed requests are retried
   * @param parallelism how many key writes are in flight at once
   */
  public DynamoDbBatchStore(
      DynamoDbClient dynamoDb, String table, RetryPolicy retry, int parallelism) {
    this.dynamoDb = Objects.requireNonNull(dynamoDb, "dynamoDb");
    this.table = Objects.requireNonNull(table, "table");
    this.retry = Objects.requireNonNull(retry, "retry");
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1, got " + parallelism);
    }
    this.batches = new Batches(dynamoDb, table);
    this.parallel = new ParallelCalls(parallelism);
  }

  @Override
  public Map<String, KeyItem> readKeys(String pipeline, String operator, Collection<String> keys) {
    String prefix = keyPrefix(pipeline, operator);
    List<Map<String, AttributeValue>> request = new ArrayList<>();
    for (String key : new LinkedHashSet<>(keys)) {
      request.add(itemKey(prefix + key, KEY_SORT_KEY));
    }
    // Every request of 100 keys at once: a batch's reads cost one round trip however many keys.
    List<Callable<List<Map<String, AttributeValue>>>> reads = new ArrayList<>();
    for (int from = 0; from < request.size(); from += READ_CHUNK) {
      List<Map<String, AttributeValue>> chunk =
          request.subList(from, Math.min(request.size(), from + READ_CHUNK));
      reads.add(() -> batches.get(chunk));
    }
    Map<String, KeyItem> found = new HashMap<>();
    for (List<Map<String, AttributeValue>> items : parallel.all(reads)) {
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

  @Override
  public Set<String> writeKeys(String pipeline, String operator, List<KeyWrite> writes) {
    String prefix = keyPrefix(pipeline, operator);
    Set<String> conflicts = ConcurrentHashMap.newKeySet();
    List<Callable<Void>> calls = new ArrayList<>(writes.size());
    for (KeyWrite write : writes) {
      calls.add(
          () -> {
            if (!put(keyItem(prefix, write), write.expectedVersion(), "writing key state")) {
              conflicts.add(write.key());
            }
            return null;
          });
    }
    parallel.all(calls);
    return Set.copyOf(conflicts);
  }

  private Map<String, AttributeValue> keyItem(String prefix, KeyWrite write) {
    Map<String, AttributeValue> item = new HashMap<>(itemKey(prefix + write.key(), KEY_SORT_KEY));
    item.put("v", Items.number(write.expectedVersion() + 1));
    Items.putBytes(item, "st", write.state());
    Items.putBytes(item, "bk", write.bookkeeping());
    if (write.expiresAt() > 0) {
      item.put(ApplicationTable.TTL_ATTRIBUTE, Items.number(write.expiresAt()));
    }
    return item;
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
  public boolean writeSplit(String pipeline, SplitState state) {
    Map<String, AttributeValue> item = SplitItems.write(state);
    item.putAll(itemKey(splitsKey(pipeline), state.split()));
    return put(item, state.version() - 1, "writing split progress");
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
  public String toString() {
    return "DynamoDbBatchStore[" + table + "]";
  }

  /** A conditional put: true if written, false if the item's version was not {@code expected}. */
  private boolean put(Map<String, AttributeValue> item, long expected, String action) {
    try {
      retry.call(
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
    } catch (ConditionalCheckFailedException conflict) {
      return false;
    } catch (SdkException e) {
      throw DynamoDbErrors.translate(action, table, e);
    }
  }

  /** Items of one partition, up to {@code limit}, with sort keys below {@code before} if given. */
  private List<Map<String, AttributeValue>> query(String pk, String before, int limit) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      int remaining = limit - items.size();
      QueryResponse page;
      try {
        page =
            retry.call(
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
      } catch (SdkException e) {
        throw DynamoDbErrors.translate("querying " + pk, table, e);
      }
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

  private static String timersKey(String pipeline) {
    return "pipe#" + pipeline + "#timers";
  }

  private static Map<String, AttributeValue> itemKey(String pk, String sk) {
    return Map.of(PK, AttributeValue.fromS(pk), SK, AttributeValue.fromS(sk));
  }
}
