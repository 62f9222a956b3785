package dev.statekit.benchmarks.pipeline;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The design the pipeline is measured against: each record on its own, one after another, a
 * strongly consistent read of its key's state, then a conditional write of the new state, items of
 * the same size as the pipeline's.
 */
final class NaivePipeline {
  private final DynamoDbClient dynamoDb;
  private final String table;
  private final byte[] padding;

  NaivePipeline(DynamoDbClient dynamoDb, String table, int stateBytes) {
    this.dynamoDb = dynamoDb;
    this.table = table;
    this.padding = new byte[stateBytes];
  }

  void process(String run, List<String> keys) {
    for (String key : keys) {
      Map<String, AttributeValue> id =
          Map.of(
              "pk",
              AttributeValue.fromS("naive#" + run + "#" + key),
              "sk",
              AttributeValue.fromS("s"));
      Map<String, AttributeValue> item =
          dynamoDb.getItem(b -> b.tableName(table).key(id).consistentRead(true)).item();
      long count = item == null || !item.containsKey("n") ? 0 : Long.parseLong(item.get("n").n());
      Map<String, AttributeValue> next = new java.util.HashMap<>(id);
      next.put("n", AttributeValue.fromN(Long.toString(count + 1)));
      next.put("st", AttributeValue.fromB(SdkBytes.fromByteArray(padding)));
      dynamoDb.putItem(
          b ->
              b.tableName(table)
                  .item(next)
                  .conditionExpression(count == 0 ? "attribute_not_exists(pk)" : "n = :n")
                  .expressionAttributeValues(
                      count == 0
                          ? null
                          : Map.of(":n", AttributeValue.fromN(Long.toString(count)))));
    }
  }
}
