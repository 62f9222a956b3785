package dev.statekit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestContextTest {
  private static final TypeName GREETER = TypeName.of("example", "greeter");
  private static final TypeName GREETS = TypeName.of("example", "greets");
  private static final ValueSpec<Integer> SEEN = ValueSpec.named("seen").withIntType();

  private static final StatefulFunction GREET =
      (context, message) -> {
        int seen = context.storage().get(SEEN).orElse(0) + 1;
        context.storage().set(SEEN, seen);
        context.send(
            EgressMessageBuilder.forEgress(GREETS)
                .withValue("Hello " + message.asUtf8String() + " #" + seen)
                .build());
        context.send(MessageBuilder.forAddress(GREETER, "log").withValue(seen).build());
        context.sendAfter(Duration.ofMinutes(1), message, "t");
        context.cancelDelayedMessage("t");
      };

  @Test
  void recordsEverySideEffectAndKeepsState() throws Exception {
    TestContext context = TestContext.forTarget(Address.of(GREETER, "Ada"));
    context.storage().set(SEEN, 2);

    GREET.apply(context, context.message("Ada"));

    assertEquals(Optional.of(3), context.storage().get(SEEN));
    assertEquals(List.of("Hello Ada #3"), context.egressStrings(GREETS));
    assertEquals(
        List.of(MessageBuilder.forAddress(GREETER, "log").withValue(3).build()),
        context.sentMessages());
    assertEquals(
        List.of(DelayedMessage.of(Duration.ofMinutes(1), context.message("Ada"), "t")),
        context.delayedMessages());
    assertEquals(List.of("t"), context.cancelledTokens());
    assertEquals(List.of(), context.pendingDelayedMessages());
  }

  @Test
  void effectsAccumulateUntilCleared() throws Exception {
    TestContext context =
        TestContext.forTarget(Address.of(GREETER, "Ada")).withCaller(Address.of(GREETER, "x"));
    GREET.apply(context, context.message("a"));
    GREET.apply(context, context.message("b"));

    assertEquals(List.of("Hello a #1", "Hello b #2"), context.egressStrings(GREETS));
    context.clearEffects();
    assertEquals(List.of(), context.egressMessages());
    assertEquals(Optional.of(2), context.storage().get(SEEN));
    assertEquals(Optional.of(Address.of(GREETER, "x")), context.caller());
  }

  @Test
  void aStateNameKeepsOneType() {
    TestContext context = TestContext.forTarget(Address.of(GREETER, "Ada"));
    context.storage().set(SEEN, 1);

    assertThrows(
        IllegalArgumentException.class,
        () -> context.storage().get(ValueSpec.named("seen").withLongType()));
    assertThrows(IllegalArgumentException.class, () -> context.storage().set(SEEN, null));
  }
}
