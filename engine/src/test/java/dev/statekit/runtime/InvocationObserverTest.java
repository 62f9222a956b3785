package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.ObservedInvocation.Outcome;
import dev.statekit.runtime.ObservedInvocation.Source;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The observer sees each invocation's message, state before and after, effects and outcome. */
class InvocationObserverTest {
  private static final TypeName COUNTER = TypeName.of("t", "counter");
  private static final TypeName LOG = TypeName.of("t", "log");
  private static final TypeName OUT = TypeName.of("t", "out");
  private static final ValueSpec<Integer> COUNT = ValueSpec.named("count").withIntType();

  private final List<ObservedInvocation> seen = new CopyOnWriteArrayList<>();
  private final InMemoryMessageBus queue =
      new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
  private final InMemoryMessageBus deadLetters =
      new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));

  private FunctionRuntime runtime(InvocationObserver observer) {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                COUNTER,
                (context, message) -> {
                  String text = message.asUtf8String();
                  if (text.equals("bad")) {
                    throw new IllegalArgumentException("bad is refused");
                  }
                  int next = context.storage().get(COUNT).orElse(0) + 1;
                  context.storage().set(COUNT, next);
                  context.send(
                      MessageBuilder.forAddress(LOG, "all").withValue(text + ":" + next).build());
                  context.sendAfter(
                      Duration.ofMinutes(5),
                      MessageBuilder.forAddress(context.self()).withValue("later").build(),
                      "tick-" + next);
                  context.send(EgressMessageBuilder.forEgress(OUT).withValue("n=" + next).build());
                },
                COUNT)
            .withFunction(LOG, (context, message) -> {})
            .build();
    return FunctionRuntime.builder(functions)
        .store(new InMemoryFunctionStore())
        .queue(queue)
        .deadLetters(deadLetters)
        .egress(EgressRoutes.builder().route(OUT, new CollectingEgressSink()).build())
        .maxAttempts(2)
        .observer(observer)
        .build();
  }

  private static QueueMessage envelope(String id, String value, int attempt) {
    return new QueueMessage(
        id,
        "{\"target\":\"t/counter/a\",\"typename\":\"io.statefun.types/string\",\"value\":\""
            + value
            + "\"}",
        "t/counter/a",
        id.replace("m-", ""),
        attempt);
  }

  @Test
  void anAppliedInvocationShowsItsMessageStateBeforeAndAfterAndEffects() {
    FunctionRuntime runtime = runtime(seen::add);
    runtime.processQueueBatch(List.of(envelope("m-1", "hi", 1)));
    runtime.processQueueBatch(List.of(envelope("m-2", "ho", 1)));

    List<ObservedInvocation> counter =
        seen.stream().filter(o -> o.address().type().equals(COUNTER)).toList();
    assertEquals(2, counter.size(), seen.toString());
    ObservedInvocation second = counter.get(1);
    assertEquals(Outcome.APPLIED, second.outcome());
    assertEquals(Source.INGRESS, second.source());
    assertNull(second.caller());
    assertNull(second.error());
    // Since the merge with 14a an invocation carries the trace id its message was given at ingress.
    org.junit.jupiter.api.Assertions.assertTrue(
        second.traceId() != null && second.traceId().startsWith("1-"),
        String.valueOf(second.traceId()));
    assertEquals("ho", second.message().asUtf8String());
    assertEquals(1, intValue(second.stateBefore().get("count")));
    assertEquals(2, intValue(second.stateAfter().get("count")));
    assertEquals(1, second.sent().size());
    assertEquals("ho:2", second.sent().get(0).asUtf8String());
    assertEquals(1, second.delayed().size());
    assertEquals(Duration.ofMinutes(5), second.delayed().get(0).delay());
    assertEquals("n=2", second.egress().get(0).asUtf8String());
    assertTrue(counter.get(0).stateBefore().isEmpty(), "no value before the first");
  }

  @Test
  void aMessageBetweenFunctionsShowsItsCaller() {
    FunctionRuntime runtime = runtime(seen::add);
    runtime.processQueueBatch(List.of(envelope("m-1", "hi", 1)));
    // The counter's message to the log went to the queue: hand it over as Lambda would.
    var sent = queue.receive(10).stream().map(InMemoryMessageBus.Received::message).toList();
    assertEquals(1, sent.size());
    runtime.processQueueBatch(sent);
    ObservedInvocation log =
        seen.stream().filter(o -> o.address().type().equals(LOG)).findFirst().orElseThrow();
    assertEquals(Source.FUNCTION, log.source());
    assertEquals("t/counter/a", log.caller().toString());
    assertEquals("hi:1", log.message().asUtf8String());
  }

  @Test
  void aFailureIsObservedAsFailedThenDeadLetteredWithItsErrorAndStateUnchanged() {
    FunctionRuntime runtime = runtime(seen::add);
    runtime.processQueueBatch(List.of(envelope("m-1", "hi", 1)));
    runtime.processQueueBatch(List.of(envelope("m-2", "bad", 1)));
    runtime.processQueueBatch(List.of(envelope("m-2", "bad", 2)));

    List<ObservedInvocation> bad =
        seen.stream().filter(o -> o.message().asUtf8String().equals("bad")).toList();
    assertEquals(
        List.of(Outcome.FAILED, Outcome.DEAD_LETTERED),
        bad.stream().map(o -> o.outcome()).toList());
    assertTrue(bad.get(1).error().contains("bad is refused"), bad.get(1).error());
    assertEquals(2, bad.get(1).attempt());
    assertEquals(bad.get(1).stateBefore(), bad.get(1).stateAfter());
    assertEquals(1, intValue(bad.get(1).stateAfter().get("count")));
    assertTrue(bad.get(1).sent().isEmpty());
    assertEquals(1, deadLetters.size());
  }

  @Test
  void anObserverThatThrowsChangesNothing() {
    FunctionRuntime runtime =
        runtime(
            o -> {
              throw new IllegalStateException("observer broke");
            });
    QueueBatchResult result = runtime.processQueueBatch(List.of(envelope("m-1", "hi", 1)));
    assertEquals(1, result.applied());
    assertTrue(result.failedMessageIds().isEmpty());
  }

  @Test
  void theValuesAreCopies() {
    FunctionRuntime runtime = runtime(seen::add);
    runtime.processQueueBatch(List.of(envelope("m-1", "hi", 1)));
    ObservedInvocation.Value value = seen.get(0).stateAfter().get("count");
    value.bytes()[0] = 42;
    assertEquals(1, intValue(value));
  }

  private static int intValue(ObservedInvocation.Value value) {
    assertEquals("io.statefun.types/int", value.typeName());
    return Types.integerType().deserialize(value.bytes());
  }
}
