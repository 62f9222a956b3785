package dev.statekit.aws.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.testservers.AwsClients;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
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

  /** While set, each call waits here before it is sent until the barrier's calls have started. */
  private final AtomicReference<CyclicBarrier> together = new AtomicReference<>();

  @BeforeEach
  void metered(TestTable table) {
    this.table = table.name();
    ExecutionInterceptor holdUntilAllStarted =
        new ExecutionInterceptor() {
          @Override
          public void beforeTransmission(
              Context.BeforeTransmission context, ExecutionAttributes attributes) {
            CyclicBarrier barrier = together.get();
            if (barrier != null) {
              try {
                barrier.await(10, TimeUnit.SECONDS);
              } catch (Exception e) {
                throw new IllegalStateException("the calls did not all start", e);
              }
            }
          }
        };
    // The meter first: a call has started for it before it waits here.
    dynamoDb = AwsClients.dynamoDb(meter, holdUntilAllStarted);
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

  /**
   * Four calls held before sending until all four have started, so that none ends before another
   * starts (on two cores, a thread started late once began after another's call had ended: 2 round
   * trips in about 3 runs of 100), then two calls one after the other.
   */
  @Test
  void callsInFlightTogetherAreOneRoundTrip() throws InterruptedException {
    List<String> ids = List.of("p1", "p2", "p3", "p4");
    together.set(new CyclicBarrier(ids.size()));
    List<Thread> threads = new ArrayList<>();
    for (String id : ids) {
      Thread thread = new Thread(() -> put(id));
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    together.set(null);
    int inFlightTogether = meter.snapshot().roundTrips();
    long sent = meter.snapshot().requestsTo("DynamoDb");
    meter.reset();

    put("s1");
    put("s2");

    assertEquals(4, sent, "every call was sent");
    assertEquals(1, inFlightTogether);
    assertEquals(2, meter.snapshot().roundTrips());
    assertEquals(0, meter.snapshot().failedRequests());
  }

  private void put(String id) {
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
