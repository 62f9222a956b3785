package dev.statekit.stream.lambda;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What {@link DynamoDbTableSink#onApplicationTable} wrote for one egress: text by record id (the
 * {@code record_id} attribute where a long id is keyed by its digest).
 */
public final class StoredResults {
  private StoredResults() {}

  public static Map<String, String> texts(DynamoDbClient dynamoDb, String table, String egress) {
    Map<String, String> stored = new TreeMap<>();
    dynamoDb
        .queryPaginator(
            b ->
                b.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(
                        Map.of(":p", AttributeValue.fromS("egress#" + egress))))
        .items()
        .forEach(
            item ->
                stored.put(
                    item.containsKey("record_id") ? item.get("record_id").s() : item.get("sk").s(),
                    item.get("text").s()));
    return stored;
  }
}
