package dev.statekit.stream.state.dynamodb;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.StateItemLimits;
import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.StoredState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Pipeline state in the application's DynamoDB table: one item per operator and key, {@code pk =
 * pipe#<pipeline>#<operator>#<key>}, {@code sk = state}, holding the state written at the last two
 * checkpoints ({@code v}/{@code val} and {@code pv}/{@code pval}; a missing value is a key whose
 * state was cleared). Reads are strongly consistent, so a key evicted from the cache reads back its
 * own latest write.
 *
 * <p>Collections (window timers) live in one partition each, {@code pk =
 * pipe#<pipeline>#<operator>#timers}, one item per {@code sk = item#<item key>} with the bytes in
 * {@code data}; a restore reads them with one paginated query.
 */
public final class DynamoDbStateTable implements StateTable {
  /** The sort key of state items. */
  public static final String SORT_KEY = "state";

  /** The sort key prefix of collection items. */
  static final String ITEM_PREFIX = "item#";

  private final BatchItemCalls batches;

  /** State in {@code tableName}, shaped as {@link ApplicationTable} describes. */
  public DynamoDbStateTable(DynamoDbClient dynamoDb, String tableName) {
    this.batches = new BatchItemCalls(dynamoDb, tableName, RetryPolicy.defaults());
  }

  /**
   * A state backend over this table, caching up to {@code maxCachedKeys} keys per operator and
   * worker.
   */
  public static StateBackend backend(DynamoDbClient dynamoDb, String tableName, int maxCachedKeys) {
    return StateBackend.over(new DynamoDbStateTable(dynamoDb, tableName), maxCachedKeys);
  }

  static String partitionKey(String scope, String key) {
    return "pipe#" + scope + "#" + key;
  }

  @Override
  public Map<String, StoredState> read(String scope, Collection<String> keys) {
    List<Map<String, AttributeValue>> request = new ArrayList<>();
    for (String key : new LinkedHashSet<>(keys)) {
      StateItemLimits.checkKey(scope, key);
      request.add(itemKey(partitionKey(scope, key)));
    }
    String prefix = partitionKey(scope, "");
    Map<String, StoredState> found = new HashMap<>();
    for (Map<String, AttributeValue> item : batches.get(request)) {
      String key = item.get(ApplicationTable.PARTITION_KEY).s().substring(prefix.length());
      found.put(
          key,
          new StoredState(
              number(item.get("v")),
              bytes(item.get("val")),
              number(item.get("pv")),
              bytes(item.get("pval"))));
    }
    return found;
  }

  @Override
  public void write(String scope, List<StateWrite> writes) {
    List<WriteRequest> requests = new ArrayList<>(writes.size());
    for (StateWrite write : writes) {
      Map<String, AttributeValue> key = itemKey(partitionKey(scope, write.key()));
      if (write.state() == null) {
        StateItemLimits.checkKey(scope, write.key());
        requests.add(WriteRequest.builder().deleteRequest(d -> d.key(key)).build());
        continue;
      }
      StoredState state = write.state();
      StateItemLimits.checkState(
          scope, write.key(), length(state.value()) + length(state.previousValue()));
      Map<String, AttributeValue> item = new HashMap<>(key);
      item.put("v", AttributeValue.fromN(Long.toString(state.version())));
      item.put("pv", AttributeValue.fromN(Long.toString(state.previousVersion())));
      if (state.value() != null) {
        item.put("val", AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(state.value())));
      }
      if (state.previousValue() != null) {
        item.put("pval", AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(state.previousValue())));
      }
      requests.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
    }
    batches.write(requests);
  }

  @Override
  public Map<String, byte[]> readCollection(String collection) {
    Map<String, byte[]> items = new HashMap<>();
    for (Map<String, AttributeValue> item : batches.query("pipe#" + collection, ITEM_PREFIX)) {
      String sk = item.get(ApplicationTable.SORT_KEY).s();
      items.put(sk.substring(ITEM_PREFIX.length()), bytes(item.get("data")));
    }
    return items;
  }

  @Override
  public void writeCollection(
      String collection, Map<String, byte[]> puts, Collection<String> deletes) {
    String pk = "pipe#" + collection;
    List<WriteRequest> requests = new ArrayList<>(puts.size() + deletes.size());
    puts.forEach(
        (key, data) -> {
          StateItemLimits.checkCollectionItem(collection, key, data.length);
          Map<String, AttributeValue> item = new HashMap<>(itemKey(pk, ITEM_PREFIX + key));
          item.put("data", AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(data)));
          requests.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
        });
    for (String key : deletes) {
      Map<String, AttributeValue> item = itemKey(pk, ITEM_PREFIX + key);
      requests.add(WriteRequest.builder().deleteRequest(d -> d.key(item)).build());
    }
    batches.write(requests);
  }

  private static Map<String, AttributeValue> itemKey(String pk) {
    return itemKey(pk, SORT_KEY);
  }

  private static Map<String, AttributeValue> itemKey(String pk, String sk) {
    return Map.of(
        ApplicationTable.PARTITION_KEY,
        AttributeValue.fromS(pk),
        ApplicationTable.SORT_KEY,
        AttributeValue.fromS(sk));
  }

  private static long number(AttributeValue value) {
    return value == null ? 0 : Long.parseLong(value.n());
  }

  private static byte[] bytes(AttributeValue value) {
    return value == null ? null : value.b().asByteArrayUnsafe();
  }

  private static int length(byte[] bytes) {
    return bytes == null ? 0 : bytes.length;
  }
}
