package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.bus.BusMessage;
import dev.statekit.runtime.bus.InMemoryMessageBus;
import dev.statekit.runtime.store.DynamoDbFunctionStore;
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
 * Review 10 against the real DynamoDB adapter (on Dynoxide): schedules that involve what DynamoDB
 * and the adapter's own retries do.
 */
@ExtendWith(RealServers.class)
class Review10DynamoDbDefectsIT {
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
                        : PutItemRequest.builder()
                            .applyMutation(castConsumer(args[0]))
                            .build();
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

  // D5. Schedule: one direct invoke without an idempotency key (the client never retries it). Its
  // commit, one conditional PutItem, is applied by DynamoDB but the answer is lost (a 500 or a
  // timeout). DynamoDbFunctionStore retries it (RetryPolicy: a 5xx passes), and the retry fails its
  // own condition (v = expected: the first attempt already moved v). The adapter reports that as a
  // CommitConflictException, so AddressCommitter takes its own write for a concurrent commit,
  // reloads, and runs the message again on top of it: nothing in the state marks an unkeyed direct
  // message as applied. Answered "applied" once; applied twice. The read-back that the change
  // added for lost answers (writtenAfterAll) runs only for StoreUnavailableException, never for a
  // conflict that the adapter's retry manufactured. Broken: exactly once.
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
    DirectInvocation once = DirectInvocation.of(MessageBuilder.forAddress(total).withValue(5L).build());
    assertEquals(DirectResult.Status.APPLIED, runtime.invoke(once).status());

    armed.set(true);
    DirectResult second = runtime.invoke(
        DirectInvocation.of(MessageBuilder.forAddress(total).withValue(7L).build()));

    var values = store.reload(total).values();
    long count = Types.longType().deserialize(values.get(TestFunctions.COUNT.name()).bytes());
    long sum = Types.longType().deserialize(values.get(TestFunctions.SUM.name()).bytes());
    assertEquals(
        Map.of("count", 2L, "sum", 12L),
        Map.of("count", count, "sum", sum),
        "the second invoke (answered " + second.status() + ") applied once");
  }

  // D6. Schedule: a queue message's commit (a tally: state, an egress record, a message to its
  // total) is applied by DynamoDB but its answer is lost; the adapter's retry fails its own
  // condition and reports a conflict (as in D5). The committer reloads, finds its own write (the
  // message is now a repeat), and delivers that write's outbox first ("previous") — but the sink
  // is down, so the message fails for now. The batch then settles its registration: the committer
  // is registered, its address is not "pending" (no PendingOutbox came back) and not
  // maybeCommitted, so the registration is removed, though the stored state names it and holds an
  // outbox never delivered. The message comes again once the sink is back: its previous outbox is
  // "no longer registered", which delivered() takes for delivered, so the message is a repeat and
  // nothing is sent. The sweep finds no registration. The egress record is lost with no dead
  // letter. Broken: nothing lost; failures visible.
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
            .egress(dev.statekit.egress.EgressRoutes.builder().route(TestFunctions.COUNTED, sink).build())
            .build();
    String run = UUID.randomUUID().toString().substring(0, 8);
    Address tally = Address.of(TestFunctions.TALLY, "lost-outbox-" + run);
    var message = MessageBuilder.forAddress(tally).withValue("total-" + run + ":1").build();
    queue.send(
        java.util.List.of(
            new dev.statekit.runtime.bus.BusMessage(
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
        runtime.processQueueBatch(batch.stream().map(InMemoryMessageBus.Received::message).toList());
    for (var received : batch) {
      if (!result.failedMessageIds().contains(received.message().messageId())) {
        queue.delete(received.receiptHandle());
      }
    }
    return result;
  }

  // D9. Schedule: one direct invoke of an array of 900 envelopes (well within Lambda's 6 MB
  // payload), each to its own counter whose id is 500 characters (DynamoDB keys take 2 KB), each
  // counter emitting an egress record. BatchProcessor registers every address whose commit
  // carries an outbox in ONE registration item (outbox#<shard>, a string set of addresses): 900 x
  // ~520 bytes is past DynamoDB's 400 KB item limit, so the UpdateItem is refused
  // (ValidationException, INVALID_REQUEST), nothing may commit, and every envelope fails. The same
  // array fails the same way on every retry: it can never succeed, however healthy the store.
  // Broken: nothing stuck / bounded bookkeeping (the registration grows with the batch, unbounded).
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
      Address counter =
          Address.of(TestFunctions.COUNTER, run + "-" + i + "-" + "x".repeat(500));
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
