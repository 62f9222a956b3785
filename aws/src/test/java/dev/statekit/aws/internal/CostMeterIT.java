package dev.statekit.aws.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.testservers.AwsClients;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/** The meter counts what DynamoDB reports, and round trips as calls in sequence. */
@ExtendWith(RealServers.class)
class CostMeterIT {
  private final CostMeter meter = new CostMeter();
  private DynamoDbClient dynamoDb;
  private String table;

  @BeforeEach
  void metered(TestTable table) {
    this.table = table.name();
    dynamoDb = AwsClients.dynamoDb(meter);
  }

  @Test
  void countsCapacityAsReportedWithoutBeingAsked() {
    dynamoDb.putItem(b -> b.tableName(table).item(item("a", 3000)));
    dynamoDb.putItem(b -> b.tableName(table).item(item("b", 10)));
    dynamoDb.batchGetItem(
        b ->
            b.requestItems(
                Map.of(
                    table,
                    KeysAndAttributes.builder()
                        .keys(List.of(key("a"), key("b"), key("missing")))
                        .build())));

    CostMeter.Snapshot cost = meter.snapshot();

    assertEquals(4.0, cost.writeCapacityUnits(), "3 KB costs 3 units, 10 bytes 1");
    assertEquals(1.5, cost.readCapacityUnits(), "eventually consistent: half a unit per item");
    assertEquals(2L, cost.requests().get("DynamoDb.PutItem"));
    assertEquals(3, cost.requestsTo("DynamoDb"));
    assertEquals(3, cost.roundTrips());
  }

  @Test
  void countsPartiqlWritesAsWrites() {
    List<BatchStatementRequest> inserts = new ArrayList<>();
    for (String id : List.of("q1", "q2", "q3")) {
      inserts.add(
          BatchStatementRequest.builder()
              .statement("INSERT INTO \"" + table + "\" VALUE {'pk': ?, 'sk': ?, 'blob': ?}")
              .parameters(
                  AttributeValue.fromS(id),
                  AttributeValue.fromS("x"),
                  AttributeValue.fromB(SdkBytes.fromByteArray(new byte[1500])))
              .build());
    }
    dynamoDb.batchExecuteStatement(b -> b.statements(inserts));

    CostMeter.Snapshot cost = meter.snapshot();

    assertEquals(6.0, cost.writeCapacityUnits(), "1.5 KB items cost 2 units each");
    assertEquals(0.0, cost.readCapacityUnits());
    assertEquals(1L, cost.requests().get("DynamoDb.BatchExecuteStatement"));
  }

  @Test
  void callsInFlightTogetherAreOneRoundTrip() throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (String id : List.of("p1", "p2", "p3", "p4")) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                slowPut(id);
              });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    int together = meter.snapshot().roundTrips();
    meter.reset();

    slowPut("s1");
    slowPut("s2");

    assertEquals(1, together);
    assertEquals(2, meter.snapshot().roundTrips());
    assertEquals(0, meter.snapshot().failedRequests());
  }

  private void slowPut(String id) {
    // A large item keeps each call in flight long enough for the others to start.
    dynamoDb.putItem(b -> b.tableName(table).item(item(id, 200_000)));
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
