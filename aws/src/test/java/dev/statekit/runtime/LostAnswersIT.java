package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.testing.ManualClock;
import dev.statekit.testservers.RealServers;
import dev.statekit.types.Types;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * The DynamoDB adapter on Dynoxide when a write's answer is lost (DynamoDB documents that a 500
 * leaves it unknown whether the write was applied) and its own retry then meets that write, and
 * when one batch holds more addresses than one registration item takes.
 */
@ExtendWith(RealServers.class)
class LostAnswersIT {
  final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));

  /**
   * A client that, while {@code armed}, lets the next conditional PutItem of a state item apply and
   * then loses its answer (a 500, as DynamoDB answers when it cannot say whether a write was
   * applied; a timeout or a broken connection does the same to the SDK).
   */
  static DynamoDbClient losingAnswers(DynamoDbClient real, AtomicBoolean armed) {
    return (DynamoDbClient)
        Proxy.newProxyInstance(
            DynamoDbClient.class.getClassLoader(),
            new Class<?>[] {DynamoDbClient.class},
            (proxy, method, args) -> {
              if (method.getName().equals("putItem") && args != null && args.length == 1) {
                PutItemRequest request =
                    args[0] instanceof PutItemRequest r
                        ? r
                        : PutItemRequest.builder().applyMutation(castConsumer(args[0])).build();
                var answer = real.putItem(request);
                AttributeValue pk = request.item().get("pk");
                if (pk != null
                    && pk.s().startsWith("fn#")
                    && request.conditionExpression() != null
                    && armed.compareAndSet(true, false)) {
                  throw InternalServerErrorException.builder()
                      .message("simulated: the write was applied, its answer lost")
                      .statusCode(500)
                      .build();
                }
                return answer;
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @SuppressWarnings("unchecked")
  private static Consumer<PutItemRequest.Builder> castConsumer(Object consumer) {
    return (Consumer<PutItemRequest.Builder>) consumer;
  }

  // An unkeyed direct invoke whose commit DynamoDB applied but whose answer was lost: the adapter's
  // retry fails its own condition and reports a conflict. The committer finds its own commit in
  // the stored state and answers applied; it does not run the message again.
  @Test
  void aCommitWhoseAnswerWasLostIsNotAppliedAgainByTheAdaptersRetry(DynamoDbClient dynamoDb) {
    String table = "review10-" + UUID.randomUUID();
    ApplicationTable.createIfAbsent(dynamoDb, table);
    AtomicBoolean armed = new AtomicBoolean(false);
    DynamoDbFunctionStore store = new DynamoDbFunctionStore(losingAnswers(dynamoDb, armed), table);
    InMemoryMessageBus queue = new InMemoryMessageBus(clock, Duration.ofSeconds(30), null, 0);
    FunctionRuntime runtime =
        FunctionRuntime.builder(TestFunctions.registry())
            .store(store)
            .queue(queue)
            .deadLetters(new InMemoryMessageBus(clock, Duration.ofSeconds(30), null, 0))
            .clock(clock)
            .build();
    Address total = Address.of(TestFunctions.TOTAL, "lost-" + UUID.randomUUID());
    DirectInvocation once =
        DirectInvocation.of(MessageBuilder.forAddress(total).withValue(5L).build());
    assertEquals(DirectResult.Status.APPLIED, runtime.invoke(once).status());

    armed.set(true);
    DirectResult second =
        runtime.invoke(DirectInvocation.of(MessageBuilder.forAddress(total).withValue(7L).build()));

    var values = store.reload(total).values();
    long count = Types.longType().deserialize(values.get(TestFunctions.COUNT.name()).bytes());
    long sum = Types.longType().deserialize(values.get(TestFunctions.SUM.name()).bytes());
    assertEquals(
        Map.of("count", 2L, "sum", 12L),
        Map.of("count", count, "sum", sum),
        "the second invoke (answered " + second.status() + ") applied once");
  }

  // The same lost answer for a queue message whose egress sink is down: the committed outbox stays
  // registered and is delivered once the sink is back.
  @Test
  void aCommittedOutboxIsNotDroppedWhenALostAnswerComesBackAsAConflict(DynamoDbClient dynamoDb) {
    String table = "review10-" + UUID.randomUUID();
    ApplicationTable.createIfAbsent(dynamoDb, table);
    AtomicBoolean armed = new AtomicBoolean(false);
    AtomicBoolean sinkDown = new AtomicBoolean(false);
    java.util.List<String> taken = new java.util.concurrent.CopyOnWriteArrayList<>();
    dev.statekit.egress.EgressSink sink =
        records -> {
          if (sinkDown.get()) {
            throw new dev.statekit.egress.EgressException(
                dev.statekit.egress.EgressException.Reason.UNAVAILABLE, "the sink is down", null);
          }
          records.forEach(r -> taken.add(r.text().orElse("")));
        };
    DynamoDbFunctionStore store = new DynamoDbFunctionStore(losingAnswers(dynamoDb, armed), table);
    InMemoryMessageBus queue = new InMemoryMessageBus(clock, Duration.ofSeconds(30), null, 0);
    InMemoryMessageBus deadLetters = new InMemoryMessageBus(clock, Duration.ofSeconds(30), null, 0);
    FunctionRuntime runtime =
        FunctionRuntime.builder(TestFunctions.registry())
            .store(store)
            .queue(queue)
            .deadLetters(deadLetters)
            .clock(clock)
            .egress(
                dev.statekit.egress.EgressRoutes.builder()
                    .route(TestFunctions.COUNTED, sink)
                    .build())
            .build();
    String run = UUID.randomUUID().toString().substring(0, 8);
    Address tally = Address.of(TestFunctions.TALLY, "lost-outbox-" + run);
    var message = MessageBuilder.forAddress(tally).withValue("total-" + run + ":1").build();
    queue.send(
        java.util.List.of(
            new dev.statekit.bus.BusMessage(
                Ingress.groupId(tally), "m1-" + run, Ingress.envelope(message))));

    armed.set(true);
    sinkDown.set(true);
    QueueBatchResult first = poll(queue, runtime);
    sinkDown.set(false);
    for (int round = 0; round < 5; round++) {
      clock.advance(Duration.ofMinutes(3));
      runtime.sweepTimers();
      while (poll(queue, runtime) != null) {}
    }

    java.util.List<BusMessage> letters = deadLetters.peekAll();
    assertEquals(
        java.util.List.of(tally.id() + ":1"),
        taken,
        "the committed egress record is delivered (or dead-lettered: "
            + letters.size()
            + " dead letters); first batch: "
            + first);
  }

  private static QueueBatchResult poll(InMemoryMessageBus queue, FunctionRuntime runtime) {
    var batch = queue.receive(10);
    if (batch.isEmpty()) {
      return null;
    }
    QueueBatchResult result =
        runtime.processQueueBatch(
            batch.stream().map(InMemoryMessageBus.Received::message).toList());
    for (var received : batch) {
      if (!result.failedMessageIds().contains(received.message().messageId())) {
        queue.delete(received.receiptHandle());
      }
    }
    return result;
  }

  // One direct invoke of 900 envelopes, each to its own address with a 500-character id and each
  // emitting an egress record: the addresses outgrow one registration item (400 KB), so the batch
  // registers them in several, and every envelope is applied.
  @Test
  void aLargeDirectBatchIsNotRefusedForGoodByItsOutboxRegistration(DynamoDbClient dynamoDb) {
    String table = "review10-" + UUID.randomUUID();
    ApplicationTable.createIfAbsent(dynamoDb, table);
    DynamoDbFunctionStore store = new DynamoDbFunctionStore(dynamoDb, table);
    InMemoryMessageBus queue = new InMemoryMessageBus(clock, Duration.ofSeconds(30), null, 0);
    FunctionRuntime runtime =
        FunctionRuntime.builder(TestFunctions.registry())
            .store(store)
            .queue(queue)
            .deadLetters(new InMemoryMessageBus(clock, Duration.ofSeconds(30), null, 0))
            .clock(clock)
            .egress(
                dev.statekit.egress.EgressRoutes.builder()
                    .route(TestFunctions.COUNTED, new dev.statekit.egress.CollectingEgressSink())
                    .build())
            .build();
    String run = UUID.randomUUID().toString().substring(0, 8);
    java.util.List<DirectInvocation> batch = new java.util.ArrayList<>();
    for (int i = 0; i < 900; i++) {
      Address counter = Address.of(TestFunctions.COUNTER, run + "-" + i + "-" + "x".repeat(500));
      batch.add(DirectInvocation.of(MessageBuilder.forAddress(counter).withValue(1L).build()));
    }

    java.util.List<DirectResult> results = runtime.invoke(batch);

    long applied = results.stream().filter(DirectResult::succeeded).count();
    assertEquals(
        900,
        applied,
        "every envelope applied; first error: "
            + results.stream()
                .filter(r -> !r.succeeded())
                .map(r -> r.errorMessage().orElse("?"))
                .findFirst()
                .map(e -> e.replaceAll("x{20,}", "x..."))
                .orElse("none"));
  }
}
