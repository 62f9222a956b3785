package dev.statekit.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The test servers' table (which depends on no StateKit code) is the table StateKit creates: same
 * keys, attribute types, billing and TTL, so a test on a {@link TestTable} tests what runs.
 */
@ExtendWith(RealServers.class)
class ApplicationTableMatchesTestTableIT {

  @Test
  void bothCreateTheSameTable(DynamoDbClient dynamoDb, TestTable testTable) {
    String ours = "app-" + UUID.randomUUID().toString().substring(0, 8);
    ApplicationTable.createIfAbsent(dynamoDb, ours);

    assertEquals(shape(dynamoDb, ours), shape(dynamoDb, testTable.name()));
    assertEquals(ApplicationTable.PARTITION_KEY, TestTable.PARTITION_KEY);
    assertEquals(ApplicationTable.SORT_KEY, TestTable.SORT_KEY);
    assertEquals(ApplicationTable.TTL_ATTRIBUTE, TestTable.TTL_ATTRIBUTE);
  }

  private static String shape(DynamoDbClient dynamoDb, String table) {
    TableDescription d = dynamoDb.describeTable(b -> b.tableName(table)).table();
    var ttl = dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();
    return d.keySchema()
        + " "
        + d.attributeDefinitions()
        + " "
        + d.billingModeSummary().billingMode()
        + " ttl="
        + ttl.attributeName()
        + "/"
        + ttl.timeToLiveStatus();
  }
}
