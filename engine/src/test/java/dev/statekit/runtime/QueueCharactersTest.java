package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The queue-character schedules on the in-memory adapters. */
class QueueCharactersTest extends QueueCharactersContract {
  static final TypeName SPLIT = TypeName.of("chars", "split");

  /**
   * {@code <id>}: sends "hi" to the KEEP addresses {@code <id>\uD83D} and {@code <id>\uD83E}: ids
   * cut in the middle of an emoji (😀, 🤖), each ending in another unpaired surrogate.
   */
  static void split(Context context, Message message) {
    String id = message.asUtf8String();
    for (String cut : List.of(id + "\uD83D", id + "\uD83E")) {
      context.send(MessageBuilder.forAddress(KEEP, cut).withValue("hi").build());
    }
  }

  // An address with half a character (an unpaired surrogate, as cutting an id inside an emoji
  // leaves) cannot be a DynamoDB key on any request, so the runtime refuses it on every store: the
  // function that sends to it is refused with the reason, nothing is sent or dead-lettered. (Until
  // 4 December such addresses were kept in memory and poisoned their batch on DynamoDB.)
  @Test
  void messagesToAddressesWithHalfACharacterAreRefusedToTheirSender() {
    FunctionRuntime runtime =
        runtime(
            b -> b.maxAttempts(2),
            StatefulFunctions.builder()
                .withFunction(
                    KEEP, QueueCharactersContract::keep, TestFunctions.DATA, TestFunctions.COUNT)
                .withFunction(SPLIT, QueueCharactersTest::split)
                .build());
    String id = "name-" + run;

    DirectResult sent =
        runtime.invoke(
            DirectInvocation.of(
                MessageBuilder.forAddress(address(SPLIT, "split")).withValue(id).build()));
    drain(runtime);

    assertEquals(DirectResult.Status.REJECTED, sent.status(), sent::toString);
    assertTrue(sent.errorMessage().orElse("").contains("half a character"), sent::toString);
    for (String cut : List.of(id + "\uD83D", id + "\uD83E")) {
      assertEquals(
          null, store().reload(Address.of(KEEP, cut)).values().get(TestFunctions.COUNT.name()));
    }
    assertEquals(List.of(), deadLetters().peekAll(), "nothing dead-lettered");
  }
}
