package dev.statekit.invocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.IncompatibleStateException;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The engine as the self-hosted runtime will drive it: per-invocation effects and undo. */
class AddressRunTest {
  private static final TypeName COUNTER = TypeName.of("test", "counter");
  private static final TypeName OUT = TypeName.of("test", "out");
  private static final ValueSpec<Integer> COUNT = ValueSpec.named("count").withIntType();
  private static final ValueSpec<String> LOG = ValueSpec.named("log").withUtf8StringType();

  private final AtomicReference<Context> leaked = new AtomicReference<>();
  private final FunctionEngine engine =
      new FunctionEngine(
          StatefulFunctions.builder()
              .withFunction(
                  COUNTER,
                  (context, message) -> {
                    leaked.set(context);
                    String command = message.asUtf8String();
                    if (command.equals("blind-fail")) {
                      // Writes without reading first: the offered bytes were never decoded.
                      context.storage().set(COUNT, 100);
                      throw new IllegalStateException("failing after a blind write");
                    }
                    int count = context.storage().get(COUNT).orElse(0) + 1;
                    context.storage().set(COUNT, count);
                    context.storage().set(LOG, context.storage().get(LOG).orElse("") + command);
                    context.send(EgressMessageBuilder.forEgress(OUT).withValue(count).build());
                    if (command.equals("fail")) {
                      throw new IllegalStateException("failing on purpose");
                    }
                    if (command.equals("later")) {
                      context.sendAfter(
                          Duration.ofSeconds(1),
                          MessageBuilder.forAddress(COUNTER, "b").withValue("x").build(),
                          "tok");
                      context.cancelDelayedMessage("old");
                    }
                    if (command.equals("reset")) {
                      context.storage().remove(LOG);
                    }
                  },
                  COUNT,
                  LOG)
              .build());

  @Test
  void eachInvocationReportsItsOwnEffectsAndStateIsThreaded() {
    AddressRun run = opened(5);

    InvocationEffects first = run.invoke(null, string("a"));
    InvocationEffects second = run.invoke(Address.of(COUNTER, "z"), string("later"));

    assertEquals(6, first.egress().get(0).asInt());
    assertEquals(List.of(), first.delayed());
    assertEquals(7, second.egress().get(0).asInt());
    assertEquals("tok", second.delayed().get(0).message().cancellationToken().orElseThrow());
    assertEquals("old", second.delayed().get(1).cancelledToken());
    assertEquals(2, run.mutations().size());
    assertEquals(
        new TypedValue("io.statefun.types/int", Types.integerType().serialize(7)),
        run.mutations().get(0).value());
    assertEquals("alater", Types.stringType().deserialize(run.mutations().get(1).value().value()));
  }

  @Test
  void aMessageWithoutTypeNameOrValueIsRefusedBeforeTheFunctionRuns() {
    AddressRun run = opened(0);

    var noType =
        assertThrows(IllegalArgumentException.class, () -> run.invoke(null, null, new byte[0]));
    var noValue =
        assertThrows(
            IllegalArgumentException.class,
            () -> run.invoke(null, "io.statefun.types/string", null));
    InvocationEffects after = run.invoke(null, string("a"));

    assertTrue(noType.getMessage().contains("no type name"), noType.getMessage());
    assertTrue(noValue.getMessage().contains("no value"), noValue.getMessage());
    assertEquals(1, after.egress().get(0).asInt(), "nothing ran for the refused messages");
  }

  @Test
  void aFailingInvocationLeavesTheStateOfTheLastGoodOne() {
    AddressRun run = opened(0);
    run.invoke(null, string("a"));

    var e = assertThrows(FunctionInvocationException.class, () -> run.invoke(null, string("fail")));
    InvocationEffects after = run.invoke(null, string("b"));

    assertEquals(1, e.invocationIndex());
    assertTrue(e.getMessage().contains("failing on purpose"), e.getMessage());
    assertEquals(2, after.egress().get(0).asInt());
    assertEquals("ab", Types.stringType().deserialize(run.mutations().get(1).value().value()));
  }

  @Test
  void aFailureAfterAWriteOrARemovalRestoresTheValueAsItStood() {
    // Written values of the built-in types are serialized when the mutations are read, not on
    // write: what a failed invocation restores must still be the last good one's value.
    AddressRun written = opened(5);
    written.invoke(null, string("a"));
    assertThrows(FunctionInvocationException.class, () -> written.invoke(null, string("fail")));
    assertEquals(6, Types.integerType().deserialize(written.mutations().get(0).value().value()));
    assertEquals("a", Types.stringType().deserialize(written.mutations().get(1).value().value()));

    AddressRun blind = opened(5);
    assertThrows(FunctionInvocationException.class, () -> blind.invoke(null, string("blind-fail")));
    assertEquals(6, blind.invoke(null, string("b")).egress().get(0).asInt());

    AddressRun removed = opened(0);
    removed.invoke(null, string("a"));
    removed.invoke(null, string("reset"));
    assertThrows(FunctionInvocationException.class, () -> removed.invoke(null, string("fail")));
    assertEquals(2, Types.integerType().deserialize(removed.mutations().get(0).value().value()));
    assertTrue(removed.mutations().get(1).isDelete());
  }

  @Test
  void aRemovalAfterWritesIsOneDelete() {
    AddressRun run = opened(0);
    run.invoke(null, string("a"));
    run.invoke(null, string("reset"));

    List<StateMutation> mutations = run.mutations();

    assertEquals(2, mutations.size());
    assertTrue(mutations.get(1).isDelete());
    assertNull(mutations.get(1).value());
  }

  @Test
  void untouchedStateProducesNoMutation() {
    AddressRun run = engine.open(Address.of(COUNTER, "a"));
    run.offer("count", null);
    run.offer("log", null);

    assertEquals(List.of(), run.mutations());
  }

  @Test
  void missingValuesAreListedUntilOffered() {
    AddressRun run = engine.open(Address.of(COUNTER, "a"));
    assertEquals(List.of(COUNT, LOG), run.missingValues());

    run.offer("log", null);
    assertEquals(List.of(COUNT), run.missingValues());
    assertTrue(!run.offer("unknown", null), "a state the function does not declare is ignored");
  }

  @Test
  void aStateIsAwaitedUntilOfferedAndOnlyIfDeclared() {
    AddressRun run = engine.open(Address.of(COUNTER, "a"));
    assertTrue(run.awaits("count") && run.awaits("log"), "declared states are awaited");
    assertTrue(!run.awaits("unknown") && !run.awaits(""), "undeclared ones are not");

    run.offer("log", null);

    assertTrue(!run.awaits("log"), "an offered state is no longer awaited: its first value stays");
    assertTrue(run.awaits("count"), "the other one still is");
  }

  @Test
  void theDeclaredNamesAreListedInDeclarationOrder() {
    AddressRun run = engine.open(Address.of(COUNTER, "a"));
    assertEquals(2, run.declaredCount());
    assertEquals(List.of("count", "log"), List.of(run.declaredName(0), run.declaredName(1)));
  }

  @Test
  void aValueOfAnotherTypeIsRefused() {
    AddressRun run = engine.open(Address.of(COUNTER, "a"));

    var e =
        assertThrows(
            IncompatibleStateException.class,
            () -> run.offer("count", new TypedValue("io.statefun.types/long", new byte[0])));

    assertTrue(e.getMessage().contains("'count'"), e.getMessage());
  }

  @Test
  void theContextRefusesUseAfterItsInvocation() {
    AddressRun run = opened(0);
    run.invoke(null, string("a"));

    var send =
        assertThrows(
            IllegalStateException.class,
            () -> leaked.get().send(EgressMessageBuilder.forEgress(OUT).withValue(1).build()));
    assertTrue(send.getMessage().contains("after its invocation returned"), send.getMessage());
    assertThrows(IllegalStateException.class, () -> leaked.get().storage().get(COUNT));
  }

  @Test
  void undeclaredOrMistypedSpecsAreRefusedInsideTheFunction() {
    FunctionEngine strict =
        new FunctionEngine(
            StatefulFunctions.builder()
                .withFunction(
                    COUNTER,
                    (context, message) ->
                        context
                            .storage()
                            .get(ValueSpec.named(message.asUtf8String()).withLongType()),
                    COUNT)
                .build());
    AddressRun run = strict.open(Address.of(COUNTER, "a"));
    run.offer("count", null);

    var undeclared =
        assertThrows(FunctionInvocationException.class, () -> run.invoke(null, string("other")));
    assertTrue(undeclared.getMessage().contains("not declared"), undeclared.getMessage());
    var mistyped =
        assertThrows(FunctionInvocationException.class, () -> run.invoke(null, string("count")));
    assertTrue(
        mistyped.getMessage().contains("declared as a io.statefun.types/int"),
        mistyped.getMessage());
  }

  @Test
  void anUnknownTypeNamesTheRegisteredOnes() {
    var e =
        assertThrows(
            UnknownFunctionException.class,
            () -> engine.open(Address.of(TypeName.of("test", "other"), "a")));
    assertTrue(e.getMessage().contains("test/counter"), e.getMessage());
    assertThrows(UnknownFunctionException.class, () -> engine.open("test", "other", "a"));
  }

  private AddressRun opened(int count) {
    AddressRun run = engine.open("test", "counter", "a");
    run.offer(
        "count", new TypedValue("io.statefun.types/int", Types.integerType().serialize(count)));
    run.offer("log", null);
    return run;
  }

  private static TypedValue string(String value) {
    return new TypedValue("io.statefun.types/string", Types.stringType().serialize(value));
  }
}
