package dev.statekit.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.function.Address;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import dev.statekit.types.TypeName;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * {@link DynamoDbFunctionStore} on Dynoxide for TransactWriteItems cancellations Dynoxide does not
 * produce on its own: a transaction DynamoDB cancels because an item was throttled ({@code
 * ThrottlingError}) or was being changed by another request ({@code TransactionConflict}), as the
 * TransactWriteItems reference documents. A delegating client answers those for TransactWriteItems;
 * every other call goes to Dynoxide.
 */
@ExtendWith(RealServers.class)
class DynamoDbFunctionStoreCancellationsIT {
  private static final TypeName FN = TypeName.of("cancel", "fn");
  private static final RetryPolicy FAST =
      RetryPolicy.builder().maxAttempts(3).baseDelay(Duration.ZERO).maxDelay(Duration.ZERO).build();

  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private DynamoDbClient dynamoDb;
  private String table;
  private FunctionStore store;

  @BeforeEach
  void connect(DynamoDbClient dynamoDb, TestTable table) {
    this.dynamoDb = dynamoDb;
    this.table = table.name();
    this.store = new DynamoDbFunctionStore(dynamoDb, table.name());
  }

  /**
   * A commit DynamoDB keeps cancelling for throttling is unavailable (the message is tried again
   * later), one cancelled for a conflict is a conflict (the runtime reads the address again), and
   * one refused for what it holds is an invalid request. Every cancellation was a conflict: a
   * throttled table made the runtime reload and re-run the function until it reported "kept
   * conflicting with concurrent commits".
   */
  @Test
  void aCancelledCommitIsTranslatedByItsReasons() {
    for (var expected :
        Map.of(
                "ThrottlingError", StoreUnavailableException.class,
                "ProvisionedThroughputExceeded", StoreUnavailableException.class,
                "TransactionConflict", CommitConflictException.class,
                "ValidationError", StoreException.class)
            .entrySet()) {
      Address address = Address.of(FN, expected.getKey() + "-" + run);
      TimerKey timer = new TimerKey(3, 1_000, "t-" + run);
      FunctionStore cancelled =
          new DynamoDbFunctionStore(cancelling(dynamoDb, expected.getKey()), table, FAST);

      StoreException refused =
          assertThrows(
              StoreException.class,
              () ->
                  cancelled.commit(
                      new Commit(
                          new AddressState(address, 1, Map.of(), Map.of(), new byte[0], 0, null, 0),
                          0,
                          List.of(new TimerChange.Schedule(new Timer(timer, "g", "x", 0))))));

      assertEquals(
          expected.getValue(),
          refused.getClass(),
          expected.getKey()
              + ": "
              + refused.getClass().getSimpleName()
              + ": "
              + refused.getMessage());
    }
  }

  /**
   * A fired timer whose drop (timer and owner's token together) keeps being cancelled for a
   * conflict or throttling is left whole, timer and token, and the caller is told to try again: the
   * adapter dropped the timer alone, so the token named a timer that was gone and the owner's every
   * later message setting that token was refused.
   */
  @Test
  void aDropTimerThatKeepsBeingCancelledLeavesTimerAndTokenAsTheyWere() {
    for (String code : List.of("TransactionConflict", "ThrottlingError")) {
      Address owner = Address.of(FN, "owner-" + code + "-" + run);
      TimerKey timer = new TimerKey(6, 1_000, "drop-" + code + "-" + run);
      store.commit(
          new Commit(
              new AddressState(owner, 1, Map.of(), Map.of("t", timer), new byte[0], 0, null, 0),
              0,
              List.of(new TimerChange.Schedule(new Timer(timer, "g", "x", 0)))));
      FunctionStore cancelled = new DynamoDbFunctionStore(cancelling(dynamoDb, code), table, FAST);

      assertThrows(StoreUnavailableException.class, () -> cancelled.dropTimer(timer, owner, "t"));

      assertTrue(store.timerExists(timer), code);
      assertEquals(Map.of("t", timer), store.reload(owner).pendingTokens(), code);
    }
  }

  /** The token names another timer: the timer is dropped alone, as before. */
  @Test
  void aDropTimerWhoseTokenNamesAnotherTimerDropsTheTimerAlone() {
    Address owner = Address.of(FN, "moved-" + run);
    TimerKey timer = new TimerKey(6, 1_000, "old-" + run);
    TimerKey other = new TimerKey(6, 2_000, "new-" + run);
    store.commit(
        new Commit(
            new AddressState(owner, 1, Map.of(), Map.of("t", other), new byte[0], 0, null, 0),
            0,
            List.of(new TimerChange.Schedule(new Timer(timer, "g", "x", 0)))));

    store.dropTimer(timer, owner, "t");

    assertFalse(store.timerExists(timer));
    assertEquals(Map.of("t", other), store.reload(owner).pendingTokens());
  }

  /**
   * A client whose TransactWriteItems DynamoDB cancels with {@code code} on the transaction's last
   * item (the first is fine: "None"), as it answers throttling or contention of one item.
   */
  private static DynamoDbClient cancelling(DynamoDbClient real, String code) {
    return (DynamoDbClient)
        Proxy.newProxyInstance(
            DynamoDbClient.class.getClassLoader(),
            new Class<?>[] {DynamoDbClient.class},
            (proxy, method, args) -> {
              if (method.getName().equals("transactWriteItems")) {
                throw TransactionCanceledException.builder()
                    .message(
                        "Transaction cancelled, please refer cancellation reasons for specific"
                            + " reasons [None, "
                            + code
                            + "] (simulated)")
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
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
