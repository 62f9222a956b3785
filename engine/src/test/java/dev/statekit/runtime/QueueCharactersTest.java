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

  // Bodies carry unpaired surrogates exactly now, so two addresses that differ only in one are two
  // targets: their messages, sent in one commit, must each arrive once. (In memory only: DynamoDB's
  // client cannot write such a key.)
  @Test
  void messagesToAddressesThatDifferOnlyInAnUnpairedSurrogateEachArrive() {
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

    assertTrue(sent.succeeded(), sent::toString);
    for (String cut : List.of(id + "\uD83D", id + "\uD83E")) {
      var count = store().reload(Address.of(KEEP, cut)).values().get(TestFunctions.COUNT.name());
      assertEquals(
          1,
          count == null ? 0 : dev.statekit.types.Types.longType().deserialize(count.bytes()),
          "once, at " + cut.substring(cut.length() - 1).codePointAt(0));
    }
    assertEquals(List.of(), deadLetters().peekAll(), "nothing dead-lettered");
  }
}
