package dev.statekit.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.PeerWire;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import org.junit.jupiter.api.Test;

/**
 * A router serving both StateFun functions and calls: a function of namespace {@code call} is
 * served on its own path ({@code /call/center}, which the usual {@code
 * /{function.namespace}/{function.name}} URL template gives), and a call's path still reaches the
 * calls. Before, the call prefix took the function's path, and the StateFun runtime's POST of
 * ToFunction bytes was refused 415 for ever.
 */
class CallPrefixTest {
  @Test
  void aFunctionInNamespaceCallIsServedOnItsOwnPath() {
    RequestReplyHandler handler =
        new RequestReplyHandler(
            StatefulFunctions.builder()
                .withFunction(TypeName.of("call", "center"), (context, message) -> {})
                .build());
    HttpRouter router =
        new HttpRouter(handler, 1 << 20, json -> "{\"status\":\"applied\"}".getBytes());
    byte[] request = PeerWire.request("call", "center", "a").message(PeerWire.string("x")).bytes();

    HttpAnswer answer =
        router.handle("POST", "/call/center", HttpAnswer.OCTET_STREAM, request, name -> null);

    assertEquals(200, answer.status(), new String(answer.body()));
    HttpAnswer call =
        router.handle(
            "POST",
            "/call/call/center/a",
            "application/json",
            "{\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}".getBytes(),
            name -> null);
    assertEquals("{\"status\":\"applied\"}", new String(call.body()));
  }
}
