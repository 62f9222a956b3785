package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.address;
import static dev.statekit.protocol.PeerWire.parse;
import static dev.statekit.protocol.PeerWire.request;
import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.lang.reflect.Field;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The names a request puts into an answer are kept by the handler for good, whatever their length:
 * {@link Utf8Cache} holds up to 4,096 strings and their UTF-8 bytes with no bound on their size. A
 * function that answers its caller (shop/inventory's {@code reserve} does) writes the caller's
 * namespace and type, which the request chose: each forged request with a new long caller namespace
 * leaves a copy of it (twice: the string and its bytes) with the shared handler. 4,096 requests of
 * 1 MiB names keep 8 GiB; the endpoint runs out of memory for everyone. HeadMemo was bounded to
 * 256-byte heads for the same reason (3520820); the cache under it was not.
 */
class NamesCachedByTheHandlerTest {
  private static final TypeName INVENTORY = TypeName.of("shop", "inventory");

  @Test
  void longCallerNamesInAnswersAreNotKeptByTheHandler() throws Exception {
    RequestReplyHandler handler =
        new RequestReplyHandler(
            StatefulFunctions.builder()
                .withFunction(
                    INVENTORY,
                    (context, message) ->
                        context
                            .caller()
                            .ifPresent(
                                cart ->
                                    context.send(
                                        MessageBuilder.forAddress(cart)
                                            .withValue("reserved")
                                            .build())))
                .build());

    int requests = 64;
    int nameBytes = 256 * 1024;
    for (int i = 0; i < requests; i++) {
      String namespace = "cart" + i + "-" + "x".repeat(nameBytes);
      byte[] answer =
          handler.invoke(
              request("shop", "inventory", "sku-1")
                  .message(address(namespace, "cart", "c1"), string("reserve"))
                  .bytes());
      assertEquals(
          namespace,
          parse(answer).getInvocationResult().getOutgoingMessages(0).getTarget().getNamespace());
    }

    long kept = 0;
    for (Map.Entry<?, ?> entry : cache(handler).entrySet()) {
      kept += ((String) entry.getKey()).length() + ((byte[]) entry.getValue()).length;
    }
    // Nothing of the answers is needed once they are sent: a few names of a usual length at most.
    assertTrue(
        kept <= 256 * 1024,
        "after "
            + requests
            + " requests the handler keeps "
            + kept
            + " bytes of the names they chose");
  }

  private static Map<?, ?> cache(RequestReplyHandler handler) throws Exception {
    Field utf8 = RequestReplyHandler.class.getDeclaredField("utf8");
    utf8.setAccessible(true);
    Field cache = Utf8Cache.class.getDeclaredField("cache");
    cache.setAccessible(true);
    return (Map<?, ?>) cache.get(utf8.get(handler));
  }
}
