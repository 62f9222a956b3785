package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.entry.EntryPoint;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A call's JSON body that is not UTF-8 is refused with a 400, as the same envelope sent by direct
 * invoke is refused: the HTTP path decoded the body leniently, each malformed byte turning into
 * U+FFFD, and applied a message the caller never sent, answering 200.
 */
class CallBodyNotUtf8Test {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> applied = new ArrayList<>();
  private final Clock clock = Clock.systemUTC();
  private final FunctionRuntime runtime =
      FunctionRuntime.builder(
              StatefulFunctions.builder()
                  .withFunction(
                      TypeName.of("t", "rec"),
                      (context, message) -> applied.add(message.asUtf8String()))
                  .build())
          .store(new InMemoryFunctionStore())
          .queue(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
          .deadLetters(new InMemoryMessageBus(clock, Duration.ofSeconds(30)))
          .build();
  private final EntryPoint entry =
      EntryPoint.builder()
          .envelopes(runtime.envelopeConsumer())
          .httpCalls(runtime.envelopeConsumer())
          .build();

  /** {@code {<fields>"value":"caf<0xE9>"}}: Latin-1's é, a malformed byte in UTF-8. */
  private static byte[] latin1(String fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(
        ("{" + fields + "\"typename\":\"io.statefun.types/string\",\"value\":\"caf")
            .getBytes(StandardCharsets.US_ASCII));
    out.write(0xE9);
    out.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  @Test
  void aCallBodyThatIsNotUtf8IsRefusedAsADirectInvokeOfItIs() throws Exception {
    // The same envelope by direct invoke: refused as not JSON (its bytes are not UTF-8).
    assertThrows(
        RuntimeException.class, () -> entry.invoke(latin1("\"target\":\"t/rec/direct\",")));

    // By HTTP: a Function URL hands a body it does not take for text over in base64.
    ObjectNode event = JSON.createObjectNode();
    event.put("rawPath", "/call/t/rec/http");
    event.putObject("requestContext").putObject("http").put("method", "POST");
    event.putObject("headers").put("content-type", "application/json");
    event.put("body", Base64.getEncoder().encodeToString(latin1("")));
    event.put("isBase64Encoded", true);
    JsonNode answer =
        JSON.readTree(entry.invoke(event.toString().getBytes(StandardCharsets.UTF_8)));

    assertEquals(List.of(), applied, () -> "applied by " + answer);
    assertEquals(400, answer.get("statusCode").asInt(), answer::toString);
  }
}
