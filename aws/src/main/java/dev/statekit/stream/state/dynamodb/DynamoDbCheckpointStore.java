package dev.statekit.stream.state.dynamodb;

import dev.statekit.StateKitException.Reason;
import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.stream.state.CheckpointManifest;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateStoreException;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * A manifest past one chunk (a source with thousands of splits, each with its position) is written
 * as a part of its checkpoint (named {@code ~manifest}) and the head holds its SHA-256 ({@code
 * spilled}) instead. Completing a checkpoint is one conditional update of the head, after all parts
 * are written, and then deletes older parts.
 */
public final class DynamoDbCheckpointStore implements CheckpointStore {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(DynamoDbCheckpointStore.class);
  private static final int CHUNK = 350 * 1024;
  private static final String HEAD = "head";

  /**
   * The part a manifest too large for the head item is written as (the engine's parts are named
   * after sources and operators, which never start with '~').
   */
  static final String MANIFEST_PART = "~manifest";

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
    writeChunks(pipeline, checkpointId, part, data);
  }

  private void writeChunks(String pipeline, long checkpointId, String part, byte[] data) {
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
    byte[] bytes = manifest.toBytes();
    // The head holds the manifest, or its digest when the manifest is written as a part.
    String held = bytes.length <= CHUNK ? "manifest" : "spilled";
    String other = held.equals("manifest") ? "spilled" : "manifest";
    byte[] value = bytes.length <= CHUNK ? bytes : sha256(bytes);
    if (bytes.length > CHUNK) {
      writeChunks(pipeline, manifest.id(), MANIFEST_PART, bytes);
    }
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
                          .updateExpression("SET latest = :id, " + held + " = :m REMOVE " + other)
                          .conditionExpression(
                              "attribute_not_exists(latest) OR latest < :id"
                                  + " OR (latest = :id AND "
                                  + held
                                  + " = :m)")
                          .expressionAttributeValues(
                              Map.of(
                                  ":id",
                                  AttributeValue.fromN(id),
                                  ":m",
                                  AttributeValue.fromB(SdkBytes.fromByteArray(value))))
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
    if (!head.containsKey("manifest") && !head.containsKey("spilled")) {
      return Optional.empty();
    }
    long id = Long.parseLong(head.get("latest").n());
    String prefix = partPrefix(id);
    Map<String, TreeMap<String, byte[]>> chunks = new HashMap<>();
    for (var item : query(pipeline, prefix, prefix + "\uffff")) {
      String rest = item.get(ApplicationTable.SORT_KEY).s().substring(prefix.length());
      int cut = rest.lastIndexOf('#');
      chunks
          .computeIfAbsent(rest.substring(0, cut), n -> new TreeMap<>())
          .put(rest.substring(cut + 1), item.get("data").b().asByteArray());
    }
    CheckpointManifest manifest;
    if (head.containsKey("manifest")) {
      manifest = CheckpointManifest.fromBytes(head.get("manifest").b().asByteArray());
    } else {
      byte[] bytes = whole(pipeline, id, MANIFEST_PART, chunks);
      if (!Arrays.equals(sha256(bytes), head.get("spilled").b().asByteArray())) {
        throw new StateStoreException(
            Reason.INVALID_REQUEST,
            "Checkpoint "
                + id
                + " of '"
                + pipeline
                + "' has a manifest part its head does not name");
      }
      manifest = CheckpointManifest.fromBytes(bytes);
    }
    Map<String, byte[]> parts = new HashMap<>();
    for (String part : manifest.parts()) {
      parts.put(part, whole(pipeline, id, part, chunks));
    }
    return Optional.of(new StoredCheckpoint(manifest, parts));
  }

  /** The chunks of {@code part}, joined. */
  private static byte[] whole(
      String pipeline, long id, String part, Map<String, TreeMap<String, byte[]>> chunks) {
    TreeMap<String, byte[]> pieces = chunks.get(part);
    if (pieces == null) {
      throw new StateStoreException(
          Reason.INVALID_REQUEST,
          "Checkpoint " + id + " of '" + pipeline + "' lacks part '" + part + "'");
    }
    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    pieces.values().forEach(whole::writeBytes);
    return whole.toByteArray();
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java platform has SHA-256", e);
    }
  }
}
