package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.aws.sqs.SqsMessageBus;
import dev.statekit.bus.BusMessage;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.StoreUnavailableException;
import dev.statekit.testservers.AwsClients;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestQueue;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Throttling and server errors pass: the runtime's adapters retry them with backoff (the SDK's own
 * retries are off here, so what is tested is StateKit's), and say so clearly when they don't pass.
 */
@ExtendWith(RealServers.class)
class TransientFailuresIT {
  private static final RetryPolicy QUICK =
      RetryPolicy.builder()
          .maxAttempts(5)
          .baseDelay(Duration.ofMillis(1))
          .maxDelay(Duration.ofMillis(5))
          .build();

  @Test
  void throttledDynamoDbCallsAreRetriedUntilTheyPass() {
    Throttle throttle = new Throttle("ProvisionedThroughputExceededException", 400);
    DynamoDbClient dynamoDb = AwsClients.dynamoDbWithoutSdkRetries(throttle);
    String table = "transient-" + UUID.randomUUID();
    ApplicationTable.createIfAbsent(dynamoDb, table);
    DynamoDbFunctionStore store = new DynamoDbFunctionStore(dynamoDb, table, QUICK);
    Address address = Address.of(TestFunctions.COUNTER, "t");

    throttle.next(2);
    store.commit(
        new dev.statekit.runtime.store.Commit(
            new AddressState(address, 1, Map.of(), Map.of(), new byte[] {1}, 0, null, 0),
            0,
            List.of()));
    throttle.next(3);
    AddressState read = store.load(List.of(address), List.of()).states().get(address);

    assertEquals(1, read.version());
    assertEquals(5, throttle.refused.get());
    throttle.next(99);
    StoreUnavailableException gaveUp =
        assertThrows(StoreUnavailableException.class, () -> store.reload(address));
    assertTrue(gaveUp.getMessage().contains("kept refusing"), gaveUp.getMessage());
  }

  @Test
  void serverErrorsOnSqsAreRetriedAndTheRuntimeCarriesOn(TestQueue queue) {
    Throttle dynamoThrottle = new Throttle("InternalServerError", 500);
    Throttle sqsThrottle = new Throttle("RequestThrottled", 400);
    DynamoDbClient dynamoDb = AwsClients.dynamoDbWithoutSdkRetries(dynamoThrottle);
    SqsClient sqs = AwsClients.sqsWithoutSdkRetries(sqsThrottle);
    String table = "transient-" + UUID.randomUUID();
    ApplicationTable.createIfAbsent(dynamoDb, table);
    SqsMessageBus bus = new SqsMessageBus(sqs, queue.url(), QUICK);
    FunctionRuntime runtime =
        FunctionRuntime.builder(TestFunctions.registry())
            .store(new DynamoDbFunctionStore(dynamoDb, table, QUICK))
            .queue(bus)
            .deadLetters(bus)
            .egress(
                dev.statekit.egress.EgressRoutes.builder()
                    .otherwise(new dev.statekit.egress.CollectingEgressSink())
                    .build())
            .build();
    Address counter = Address.of(TestFunctions.COUNTER, "c-" + UUID.randomUUID());

    sqsThrottle.next(2);
    bus.send(List.of(new BusMessage("g", "d-" + UUID.randomUUID(), "{}")));
    dynamoThrottle.next(2);
    sqsThrottle.next(2);
    DirectResult result =
        runtime.invoke(
            DirectInvocation.of(MessageBuilder.forAddress(counter).withValue(3L).build()));

    assertTrue(result.succeeded(), result.toString());
    var count = new DynamoDbFunctionStore(dynamoDb, table).reload(counter).values().get("count");
    assertEquals(1L, Types.longType().deserialize(count.bytes()));
    assertEquals(6, dynamoThrottle.refused.get() + sqsThrottle.refused.get());
  }

  /** Refuses the next calls the way the service does when it throttles or fails. */
  private static final class Throttle implements ExecutionInterceptor {
    final AtomicInteger pending = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();
    private final String code;
    private final int status;

    Throttle(String code, int status) {
      this.code = code;
      this.status = status;
    }

    void next(int calls) {
      pending.set(calls);
    }

    @Override
    public void beforeTransmission(
        Context.BeforeTransmission context, ExecutionAttributes attributes) {
      if (pending.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        refused.incrementAndGet();
        throw AwsServiceException.builder()
            .statusCode(status)
            .awsErrorDetails(
                AwsErrorDetails.builder().errorCode(code).errorMessage("simulated").build())
            .build();
      }
    }
  }
}
