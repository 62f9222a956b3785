package dev.statekit.function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.types.TypeName;
import org.junit.jupiter.api.Test;

/** A builder given no value refuses to build and names what it was building. */
class BuilderWithoutValueTest {
  private static final TypeName GREETER = TypeName.of("example", "greeter");

  @Test
  void aMessageWithoutValueNamesItsTarget() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> MessageBuilder.forAddress(GREETER, "ann").build());
    assertEquals(
        "The message to example/greeter/ann has no value: call withValue(...) or"
            + " withCustomType(...) before build()",
        e.getMessage());
  }

  @Test
  void anEgressRecordWithoutValueNamesItsEgress() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> EgressMessageBuilder.forEgress(TypeName.of("example", "out")).build());
    assertEquals(
        "The egress record for example/out has no value: call withValue(...) or"
            + " withCustomType(...) before build()",
        e.getMessage());
  }

  @Test
  void aBuiltMessageCarriesItsValue() {
    Message message = MessageBuilder.forAddress(GREETER, "ann").withValue("hi").build();
    assertEquals("hi", message.asUtf8String());
    assertEquals("example/greeter/ann", message.targetAddress().toString());
  }
}
