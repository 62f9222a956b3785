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

/**
 * A function type whose namespace still ends in '/' once TypeName.of dropped one ("n//" is "n/"):
 * the runtime writes a queued message's addresses as the type's text ("n//keep") and reads them
 * back with TypeName.parse, which drops a '/' again ("n/keep"), so the message names another type
 * than the one it was sent to.
 */
class NamespaceEndingInASlashTest extends RuntimeFixture {
  static final TypeName KEEP = TypeName.of("n//", "keep");
  static final TypeName RELAY = TypeName.of("n", "relay");

  /** {@code <keep id>}: sends "hi" to the KEEP address of that id. */
  static void relay(Context context, Message message) {
    context.send(MessageBuilder.forAddress(KEEP, message.asUtf8String()).withValue("hi").build());
  }

  @Test
  void aMessageToATypeWhoseNamespaceEndsInASlashArrivesAtThatType() {
    assertEquals("n/", KEEP.namespace(), "premise: one of the two '/' stays");
    FunctionRuntime runtime =
        runtime(
            b -> b.maxAttempts(2),
            StatefulFunctions.builder()
                .withFunction(
                    KEEP, QueueCharactersContract::keep, TestFunctions.DATA, TestFunctions.COUNT)
                .withFunction(RELAY, NamespaceEndingInASlashTest::relay)
                .build());
    String keepId = "keep-" + run;

    DirectResult sent =
        runtime.invoke(
            DirectInvocation.of(
                MessageBuilder.forAddress(address(RELAY, "relay")).withValue(keepId).build()));
    drain(runtime);
    for (int sweep = 0; sweep < 3; sweep++) {
      clock.advance(seconds(180));
      runtime.sweepTimers();
      drain(runtime);
    }

    assertTrue(sent.succeeded(), sent::toString);
    assertEquals(List.of(), deadLetterReport(), "nothing dead-lettered");
    assertEquals(1, value(Address.of(KEEP, keepId), TestFunctions.COUNT), "the message, once");
  }

  /**
   * Beside a type n/keep, the message to n//keep is applied to n/keep: another function's state.
   */
  @Test
  void aMessageToATypeWhoseNamespaceEndsInASlashIsNotAppliedToTheTypeWithoutIt() {
    TypeName plain = TypeName.of("n", "keep");
    FunctionRuntime runtime =
        runtime(
            b -> b.maxAttempts(2),
            StatefulFunctions.builder()
                .withFunction(
                    KEEP, QueueCharactersContract::keep, TestFunctions.DATA, TestFunctions.COUNT)
                .withFunction(
                    plain, QueueCharactersContract::keep, TestFunctions.DATA, TestFunctions.COUNT)
                .withFunction(RELAY, NamespaceEndingInASlashTest::relay)
                .build());
    String keepId = "keep-" + run;

    DirectResult sent =
        runtime.invoke(
            DirectInvocation.of(
                MessageBuilder.forAddress(address(RELAY, "relay")).withValue(keepId).build()));
    drain(runtime);

    assertTrue(sent.succeeded(), sent::toString);
    assertEquals(0, value(Address.of(plain, keepId), TestFunctions.COUNT), "n/keep got no message");
    assertEquals(1, value(Address.of(KEEP, keepId), TestFunctions.COUNT), "n//keep got it once");
  }
}
