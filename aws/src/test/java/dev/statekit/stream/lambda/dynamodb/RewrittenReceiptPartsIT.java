package dev.statekit.stream.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Invariants 3 and 4 (nothing lost, nothing stuck) for deferred outputs on DynamoDB. A deferred
 * message's receipt is written twice more: kept 14 days past the retention when it is deferred
 * ({@code DeferredDeliveries.defer}), and given the retention's expiry again once the tick (or a
 * batch of order groups) delivered it ({@code DeferredDeliveries.drain}). A receipt past one item
 * is written in parts, the parts first and then its own item that names them; both writers write
 * the same bytes, so the same part items.
 *
 * <p>Schedule: message m-1 (a 400 KB receipt, two parts) is deferred; the sink comes back in part
 * (throttling: some calls pass). The tick drains m-1's entry and rewrites its receipt with the
 * retention's expiry while a copy of m-1 (SQS delivers a message at least once; or a DynamoDB
 * stream's retry of the batch), whose own delivery failed, defers it again with the long expiry.
 * The copy writes its parts (long), the tick writes the parts and the own item (short), the copy
 * writes the own item (long): the own item says "keep 14 days past the retention", its part says
 * "the retention". The sink stays down past the retention; TTL deletes the part. Every drain of the
 * split then reads the copy's entry and the receipt's read throws ("Part 1 ... is missing ... the
 * table was changed by something else"): the tick fails on that split, the entries behind it wait
 * for 14 days until TTL takes the own item (their receipts, written about when it was, with it),
 * and every batch of order groups of the split (a FIFO queue, a DynamoDB stream) fails before it
 * applies anything, since it drains the split's first page with its reads.
 */
@ExtendWith(RealServers.class)
class RewrittenReceiptPartsIT {
  private static final String PIPELINE = "counts";
  private static final String QUEUE = "orders";

  @Test
  void aReceiptRewrittenByTwoWritersKeepsEveryPartAsLongAsTheItemNamingThem(
      DynamoDbClient dynamoDb, TestTable table) {
    long nowSeconds = System.currentTimeMillis() / 1000;
    // The copy's deferral: 14 days past the retention.
    long kept = nowSeconds + 15 * 86_400;
    // The tick's rewrite: the retention's expiry, passed by now (the outage outlasted it).
    long drained = nowSeconds - 3_600;
    byte[] outputs = new byte[400_000];
    new Random(7).nextBytes(outputs);

    AtomicBoolean raced = new AtomicBoolean();
    DynamoDbBatchStore[] tick = new DynamoDbBatchStore[1];
    DynamoDbClient interleaving =
        interleaving(
            dynamoDb,
            request -> {
              if (ownItemWith(request, kept) && !raced.getAndSet(true)) {
                // The copy wrote its parts and is about to write the own item: the tick's whole
                // rewrite lands in between.
                tick[0].writeReceipts(PIPELINE, QUEUE, Map.of("m-1", outputs), drained);
              }
            });
    tick[0] = new DynamoDbBatchStore(dynamoDb, table.name());
    DynamoDbBatchStore copy = new DynamoDbBatchStore(interleaving, table.name());

    copy.writeReceipts(PIPELINE, QUEUE, Map.of("m-1", outputs), kept);
    assertTrue(raced.get(), "the tick's rewrite ran between the copy's two writes");

    // DynamoDB's TTL deletes what expired: the part the tick wrote last, not the own item.
    expire(dynamoDb, table.name(), nowSeconds);

    Map<String, byte[]> read =
        assertDoesNotThrow(
            () -> copy.readReceipts(PIPELINE, QUEUE, List.of("m-1")),
            "the receipt's own item keeps it 14 days past the retention, but its part carried the"
                + " tick's expiry and TTL deleted it: the drain of the copy's entry fails on every"
                + " tick until TTL takes the own item");
    assertArrayEquals(outputs, read.get("m-1"), "the deferred receipt's outputs, whole");
  }

  /**
   * Whether {@code request} writes a receipt's own item (sort key "done") expiring at {@code at}.
   */
  private static boolean ownItemWith(BatchWriteItemRequest request, long at) {
    for (List<WriteRequest> writes : request.requestItems().values()) {
      for (WriteRequest write : writes) {
        if (write.putRequest() == null) {
          continue;
        }
        Map<String, AttributeValue> item = write.putRequest().item();
        AttributeValue sk = item.get(ApplicationTable.SORT_KEY);
        AttributeValue ttl = item.get(ApplicationTable.TTL_ATTRIBUTE);
        if (sk != null
            && sk.s().equals(DynamoDbBatchStore.RECEIPT_SORT_KEY)
            && ttl != null
            && Long.parseLong(ttl.n()) == at) {
          return true;
        }
      }
    }
    return false;
  }

  /** Deletes the items expired by {@code nowSeconds}, as DynamoDB's TTL does (some time after). */
  private static void expire(DynamoDbClient dynamoDb, String table, long nowSeconds) {
    for (Map<String, AttributeValue> item :
        dynamoDb.scanPaginator(b -> b.tableName(table)).items()) {
      AttributeValue ttl = item.get(ApplicationTable.TTL_ATTRIBUTE);
      if (ttl != null && Long.parseLong(ttl.n()) <= nowSeconds) {
        dynamoDb.deleteItem(
            b ->
                b.tableName(table)
                    .key(
                        Map.of(
                            ApplicationTable.PARTITION_KEY,
                            item.get(ApplicationTable.PARTITION_KEY),
                            ApplicationTable.SORT_KEY,
                            item.get(ApplicationTable.SORT_KEY))));
      }
    }
  }

  /** A client that hands every call to {@code real}, running {@code before} ahead of each write. */
  @SuppressWarnings("unchecked")
  private static DynamoDbClient interleaving(
      DynamoDbClient real, Consumer<BatchWriteItemRequest> before) {
    return (DynamoDbClient)
        Proxy.newProxyInstance(
            DynamoDbClient.class.getClassLoader(),
            new Class<?>[] {DynamoDbClient.class},
            (proxy, method, args) -> {
              if (method.getName().equals("batchWriteItem") && args != null && args.length == 1) {
                BatchWriteItemRequest request =
                    args[0] instanceof BatchWriteItemRequest r
                        ? r
                        : BatchWriteItemRequest.builder()
                            .applyMutation((Consumer<BatchWriteItemRequest.Builder>) args[0])
                            .build();
                before.accept(request);
                return real.batchWriteItem(request);
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
