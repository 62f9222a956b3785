package dev.statekit.http;

import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Issue 12, case 4: error answers say what was wrong with the request, nothing of the code. */
class ErrorAnswersTest {
  private static final TypeName LEAKY = TypeName.of("test", "leaky");

  private final HttpRouter router =
      new HttpRouter(
          new RequestReplyHandler(
              StatefulFunctions.builder()
                  .withFunction(
                      LEAKY,
                      (context, message) -> {
                        throw new IllegalStateException(
                            "jdbc:postgresql://db.internal:5432 refused user admin");
                      })
                  .build()),
          1 << 20);

  @Test
  void aFailingFunctionsAnswerNamesTheAddressButNotTheException() {
    HttpAnswer answer =
        router.handle(
            "POST", "/", null, request("test", "leaky", "a").message(string("x")).bytes());
    String body = new String(answer.body(), StandardCharsets.UTF_8);

    assertEquals(500, answer.status());
    assertTrue(body.contains("test/leaky/a"), body);
    assertFalse(body.contains("db.internal"), body);
    assertFalse(body.contains("IllegalStateException"), body);
    assertFalse(body.contains("java."), body);
  }
}
