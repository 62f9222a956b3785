package dev.statekit.stream.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.StateKitException.Reason;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.stream.lambda.Attempt;
import dev.statekit.stream.state.StateStoreException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A TransactWriteItems of the pipeline store that DynamoDB keeps cancelling (here
 * DynamoDbBatchStore.putAttemptInOrder: the split's order item and the attempt's item) is
 * translated by its cancellation reasons, as the function store's are: a throttled table is
 * UNAVAILABLE, a refused request INVALID_REQUEST, and only another writer's transaction a CONFLICT.
 * Before, every cancellation was a conflict, "read them again and retry".
 */
class CancelledTransactionsTest {
  private static final RetryPolicy FAST =
      RetryPolicy.builder().maxAttempts(3).baseDelay(Duration.ZERO).maxDelay(Duration.ZERO).build();

  @Test
  void aCancelledTransactionIsAConflictOnlyWhenAnotherWriterCausedIt() {
    for (var expected :
        Map.of(
                "ThrottlingError", Reason.UNAVAILABLE,
                "ProvisionedThroughputExceeded", Reason.UNAVAILABLE,
                "ValidationError", Reason.INVALID_REQUEST,
                "TransactionConflict", Reason.CONFLICT)
            .entrySet()) {
      AtomicInteger calls = new AtomicInteger();
      DynamoDbBatchStore store =
          new DynamoDbBatchStore(cancelling(expected.getKey(), calls), "table", FAST, 1);

      StateStoreException e =
          assertThrows(
              StateStoreException.class,
              () ->
                  store.putAttemptInOrder(
                      "p", "stream/shard-0", new Attempt("100", "200", 1_000), 0));

      assertEquals(
          expected.getValue(),
          e.reason(),
          expected.getKey() + " after " + calls.get() + " calls: " + e.getMessage());
    }
  }

  /** Every TransactWriteItems is cancelled with reasons [None, code]. */
  private static DynamoDbClient cancelling(String code, AtomicInteger calls) {
    return (DynamoDbClient)
        Proxy.newProxyInstance(
            DynamoDbClient.class.getClassLoader(),
            new Class<?>[] {DynamoDbClient.class},
            (proxy, method, args) -> {
              if (method.getName().equals("transactWriteItems")) {
                calls.incrementAndGet();
                throw TransactionCanceledException.builder()
                    .message("Transaction cancelled [None, " + code + "] (simulated)")
                    .cancellationReasons(
                        CancellationReason.builder().code("None").build(),
                        CancellationReason.builder().code(code).message("simulated").build())
                    .statusCode(400)
                    .awsErrorDetails(
                        AwsErrorDetails.builder()
                            .errorCode("TransactionCanceledException")
                            .serviceName("DynamoDb")
                            .build())
                    .build();
              }
              if (method.getName().equals("close") || method.getName().equals("serviceName")) {
                return null;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
