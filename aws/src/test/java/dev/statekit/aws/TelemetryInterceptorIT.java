package dev.statekit.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.telemetry.Metric;
import dev.statekit.telemetry.MetricsReport;
import dev.statekit.telemetry.Telemetry;
import dev.statekit.testservers.AwsClients;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The SDK clients' interceptor records DynamoDB's capacity into the invocation's metrics. */
@ExtendWith(RealServers.class)
class TelemetryInterceptorIT {
  @Test
  void capacityReportedByDynamoDbBecomesTheInvocationsMetrics(TestTable table) {
    DynamoDbClient dynamoDb = AwsClients.dynamoDb(TelemetryInterceptor.INSTANCE);
    List<MetricsReport> reports = new ArrayList<>();
    try (Telemetry.Scope scope = Telemetry.invocation("req", null, reports::add)) {
      dynamoDb.putItem(b -> b.tableName(table.name()).item(item("a", 3000)));
      dynamoDb.getItem(b -> b.tableName(table.name()).key(key("a")));
    }

    assertEquals(1, reports.size());
    assertEquals(3.0, reports.get(0).sum(Metric.WRITE_CAPACITY), "3 KB costs 3 write units");
    assertEquals(0.5, reports.get(0).sum(Metric.READ_CAPACITY), "an eventually consistent read");
  }

  @Test
  void outsideAnInvocationNothingIsRecordedAndNothingFails(TestTable table) {
    DynamoDbClient dynamoDb = AwsClients.dynamoDb(TelemetryInterceptor.INSTANCE);
    dynamoDb.putItem(b -> b.tableName(table.name()).item(item("b", 10)));
    assertEquals(Map.of(), Telemetry.fields());
  }

  private static Map<String, AttributeValue> key(String id) {
    return Map.of("pk", AttributeValue.fromS(id), "sk", AttributeValue.fromS("x"));
  }

  private static Map<String, AttributeValue> item(String id, int bytes) {
    return Map.of(
        "pk", AttributeValue.fromS(id),
        "sk", AttributeValue.fromS("x"),
        "blob", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[bytes])));
  }
}
