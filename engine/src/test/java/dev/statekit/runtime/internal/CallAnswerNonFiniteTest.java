package dev.statekit.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.json.PlainJson;
import dev.statekit.runtime.CallResult;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import org.junit.jupiter.api.Test;

/**
 * A call's reply is given as an envelope's value (docs/runtime.md): a double reply of NaN was
 * written as the JSON string "NaN", which as an envelope's value is refused for a double (and a
 * caller reads a string, not a number); it goes as "base64".
 */
class CallAnswerNonFiniteTest {
  private static final TypeName GREETER = TypeName.parse("example/greeter");

  @Test
  void aNaNReplyReadsBackAsAnEnvelopesValue() throws Exception {
    byte[] nan = Types.doubleType().serialize(Double.NaN);
    CallResult result =
        new CallResult(CallResult.Status.APPLIED, false, "io.statefun.types/double", nan, null);

    String answer = PlainJson.text(CallAnswers.json(result));
    ObjectNode reply = (ObjectNode) EnvelopeCodec.tree(answer).get("reply");
    reply.put("target", "example/greeter/ada");
    AddressResolver targets =
        new AddressResolver(
            StatefulFunctions.builder().withFunction(GREETER, (c, m) -> {}).build());

    EnvelopeCodec.Envelope read =
        assertDoesNotThrow(
            () -> EnvelopeCodec.parse(reply, targets), () -> "the answer's reply: " + answer);
    assertArrayEquals(nan, read.value(), answer);
  }
}
