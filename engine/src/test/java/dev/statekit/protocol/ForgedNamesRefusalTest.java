package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.UnknownFunctionException;
import dev.statekit.protocol.internal.wire.Address;
import dev.statekit.protocol.internal.wire.ToFunction;
import dev.statekit.protocol.internal.wire.TypedValue;
import dev.statekit.types.TypeName;
import org.junit.jupiter.api.Test;

/**
 * A refusal quotes a forged request's names only in part: it goes into the 400's body and the log,
 * and a name of a megabyte (32 MiB fit a request to the HTTP endpoint) made both that large.
 */
class ForgedNamesRefusalTest {
  private static final String HUGE = "n".repeat(1_000_000);

  /** Room for the message's own words and a few quoted names of 200 characters. */
  private static final int MOST = 2_000;

  private final RequestReplyHandler handler =
      new RequestReplyHandler(ConformanceFunctions.registry());

  @Test
  void anArgumentTypeOfAMegabyte() {
    assertShortRefusal(
        MalformedRequestException.class,
        request(address("test", "effects", "a"), null, HUGE),
        null,
        "typename");
  }

  @Test
  void anIncompleteTargetWithAnIdOfAMegabyte() {
    assertShortRefusal(
        MalformedRequestException.class,
        request(address("", "counter", HUGE), null, "a/b"),
        null,
        "incomplete");
  }

  @Test
  void anIncompleteCallerWithAnIdOfAMegabyte() {
    assertShortRefusal(
        MalformedRequestException.class,
        request(address("test", "effects", "a"), address("", "c", HUGE), "a/b"),
        null,
        "incomplete");
  }

  @Test
  void aTargetOfAMegabyteSentToAnotherTypesEndpoint() {
    assertShortRefusal(
        MalformedRequestException.class,
        request(address("test", "counter", HUGE), null, "a/b"),
        TypeName.of("test", "effects"),
        "endpoint");
  }

  @Test
  void anUnknownTypeOfAMegabyte() {
    assertShortRefusal(
        UnknownFunctionException.class,
        request(address("test", HUGE, "a"), null, "a/b"),
        null,
        "No function is registered");
  }

  private void assertShortRefusal(
      Class<? extends RuntimeException> type, byte[] request, TypeName endpoint, String says) {
    RuntimeException refusal =
        assertThrows(
            type,
            () -> {
              if (endpoint == null) {
                handler.invoke(request);
              } else {
                handler.invoke(request, endpoint);
              }
            });
    String message = refusal.getMessage();
    assertTrue(message.length() <= MOST, "a refusal of " + message.length() + " characters");
    assertTrue(message.contains(says), message.substring(0, Math.min(300, message.length())));
    assertTrue(message.contains(" characters)"), "says how long the name was");
  }

  private static Address address(String namespace, String type, String id) {
    return Address.newBuilder().setNamespace(namespace).setType(type).setId(id).build();
  }

  private static byte[] request(Address target, Address caller, String argumentType) {
    ToFunction.Invocation.Builder invocation =
        ToFunction.Invocation.newBuilder()
            .setArgument(TypedValue.newBuilder().setTypename(argumentType).setHasValue(true));
    if (caller != null) {
      invocation.setCaller(caller);
    }
    return ToFunction.newBuilder()
        .setInvocation(
            ToFunction.InvocationBatchRequest.newBuilder()
                .setTarget(target)
                // The functions' one state, so that the invocations are reached.
                .addState(ToFunction.PersistedValue.newBuilder().setStateName("note"))
                .addInvocations(invocation))
        .build()
        .toByteArray();
  }
}
