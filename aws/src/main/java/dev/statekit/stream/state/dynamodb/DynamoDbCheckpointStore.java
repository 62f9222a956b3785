package dev.statekit.stream.state.dynamodb;

import dev.statekit.StateKitException.Reason;
import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.stream.state.CheckpointManifest;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateStoreException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Checkpoints in the application's DynamoDB table, under {@code pk = ckpt#<pipeline>}: the head
 * item ({@code sk = head}) holds the id counter ({@code reserved}), the latest complete id and its
 * manifest; each part is one or more items {@code sk = part#<id>#<name>#<chunk>} of at most 350 KB.
 * Completing a checkpoint is one conditional update of the head, after all parts are written, and
 * then deletes older parts.
 */
public final class DynamoDbCheckpointStore implements CheckpointStore {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(DynamoDbCheckpointStore.class);
  private static final int CHUNK = 350 * 1024;
  private static final String HEAD = "head";

  private final DynamoDbClient dynamoDb;
  private final String table;
  private final BatchItemCalls batches;

  /** Checkpoints in {@code tableName}, shaped as {@link ApplicationTable} describes. */
  public DynamoDbCheckpointStore(DynamoDbClient dynamoDb, String tableName) {
    this.dynamoDb = dynamoDb;
    this.table = tableName;
    this.batches = new BatchItemCalls(dynamoDb, tableName, RetryPolicy.defaults());
  }

  private static String pk(String pipeline) {
    return "ckpt#" + pipeline;
  }

  private static String partPrefix(long id) {
    return String.format("part#%019d#", id);
  }

  private static Map<String, AttributeValue> key(String pipeline, String sk) {
    return Map.of(
        ApplicationTable.PARTITION_KEY,
        AttributeValue.fromS(pk(pipeline)),
        ApplicationTable.SORT_KEY,
        AttributeValue.fromS(sk));
  }

  @Override
  public long begin(String pipeline) {
    var response =
        batches.call(
            "reserving a checkpoint id",
            () ->
                dynamoDb.updateItem(
                    b ->
                        b.tableName(table)
                            .key(key(pipeline, HEAD))
                            .updateExpression("ADD reserved :one")
                            .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1")))
                            .returnValues(ReturnValue.UPDATED_NEW)
                            .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)));
    return Long.parseLong(response.attributes().get("reserved").n());
  }

  @Override
  public long lastReserved(String pipeline) {
    Map<String, AttributeValue> head = head(pipeline);
    return head.containsKey("reserved") ? Long.parseLong(head.get("reserved").n()) : 0;
  }

  private Map<String, AttributeValue> head(String pipeline) {
    return batches
        .call(
            "reading the checkpoint head",
            () ->
                dynamoDb.getItem(
                    b ->
                        b.tableName(table)
                            .key(key(pipeline, HEAD))
                            .consistentRead(true)
                            .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)))
        .item();
  }

  @Override
  public void writePart(String pipeline, long checkpointId, String part, byte[] data) {
    List<WriteRequest> writes = new ArrayList<>();
    int chunks = Math.max(1, (data.length + CHUNK - 1) / CHUNK);
    for (int i = 0; i < chunks; i++) {
      Map<String, AttributeValue> item =
          new HashMap<>(key(pipeline, partPrefix(checkpointId) + part + String.format("#%04d", i)));
      byte[] slice = Arrays.copyOfRange(data, i * CHUNK, Math.min(data.length, (i + 1) * CHUNK));
      item.put("data", AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(slice)));
      writes.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
    }
    batches.write(writes);
  }

  @Override
  public void complete(String pipeline, CheckpointManifest manifest) {
    String id = Long.toString(manifest.id());
    try {
      // The same manifest again passes: a retry (the SDK's after a lost answer, or the policy's)
      // may meet the write it sent before, which stands.
      batches.call(
          "completing a checkpoint",
          () ->
              dynamoDb.updateItem(
                  b ->
                      b.tableName(table)
                          .key(key(pipeline, HEAD))
                          .updateExpression("SET latest = :id, manifest = :m")
                          .conditionExpression(
                              "attribute_not_exists(latest) OR latest < :id"
                                  + " OR (latest = :id AND manifest = :m)")
                          .expressionAttributeValues(
                              Map.of(
                                  ":id",
                                  AttributeValue.fromN(id),
                                  ":m",
                                  AttributeValue.fromB(SdkBytes.fromByteArray(manifest.toBytes()))))
                          .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)));
    } catch (StateStoreException e) {
      if (e.getCause() instanceof ConditionalCheckFailedException) {
        throw new StateStoreException(
            Reason.CONFLICT,
            "Checkpoint " + id + " of '" + pipeline + "' is older than the complete one",
            e.getCause());
      }
      throw e;
    }
    deleteOlderParts(pipeline, manifest.id());
  }

  /** Parts of older and abandoned checkpoints; a failure here leaves garbage, not wrong state. */
  private void deleteOlderParts(String pipeline, long id) {
    try {
      List<WriteRequest> deletes = new ArrayList<>();
      for (var item : query(pipeline, "part#", partPrefix(id))) {
        Map<String, AttributeValue> k = key(pipeline, item.get(ApplicationTable.SORT_KEY).s());
        deletes.add(WriteRequest.builder().deleteRequest(d -> d.key(k)).build());
      }
      batches.write(deletes);
    } catch (StateStoreException e) {
      LOG.warn("Could not delete old checkpoint parts: " + e, e);
    }
  }

  /** Items with {@code from <= sk < to}. */
  private List<Map<String, AttributeValue>> query(String pipeline, String from, String to) {
    QueryRequest request =
        QueryRequest.builder()
            .tableName(table)
            .keyConditionExpression("pk = :pk AND sk BETWEEN :from AND :to")
            .expressionAttributeValues(
                Map.of(
                    ":pk", AttributeValue.fromS(pk(pipeline)),
                    ":from", AttributeValue.fromS(from),
                    ":to", AttributeValue.fromS(to)))
            .consistentRead(true)
            .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
            .build();
    // A retried query starts its list again: an attempt that failed on a later page had added
    // the earlier pages' items.
    List<Map<String, AttributeValue>> items =
        batches.call(
            "reading checkpoint parts",
            () -> {
              List<Map<String, AttributeValue>> read = new ArrayList<>();
              dynamoDb.queryPaginator(request).items().forEach(read::add);
              return read;
            });
    items.removeIf(i -> i.get(ApplicationTable.SORT_KEY).s().equals(to));
    return items;
  }

  @Override
  public Optional<StoredCheckpoint> latest(String pipeline) {
    Map<String, AttributeValue> head = head(pipeline);
    if (!head.containsKey("manifest")) {
      return Optional.empty();
    }
    CheckpointManifest manifest =
        CheckpointManifest.fromBytes(head.get("manifest").b().asByteArray());
    String prefix = partPrefix(manifest.id());
    Map<String, TreeMap<String, byte[]>> chunks = new HashMap<>();
    for (var item : query(pipeline, prefix, prefix + "\uffff")) {
      String rest = item.get(ApplicationTable.SORT_KEY).s().substring(prefix.length());
      int cut = rest.lastIndexOf('#');
      chunks
          .computeIfAbsent(rest.substring(0, cut), n -> new TreeMap<>())
          .put(rest.substring(cut + 1), item.get("data").b().asByteArray());
    }
    Map<String, byte[]> parts = new HashMap<>();
    for (String part : manifest.parts()) {
      TreeMap<String, byte[]> pieces = chunks.get(part);
      if (pieces == null) {
        throw new StateStoreException(
            Reason.INVALID_REQUEST,
            "Checkpoint " + manifest.id() + " of '" + pipeline + "' lacks part '" + part + "'");
      }
      ByteArrayOutputStream whole = new ByteArrayOutputStream();
      pieces.values().forEach(whole::writeBytes);
      parts.put(part, whole.toByteArray());
    }
    return Optional.of(new StoredCheckpoint(manifest, parts));
  }
}
