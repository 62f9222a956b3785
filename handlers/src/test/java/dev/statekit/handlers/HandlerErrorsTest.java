package dev.statekit.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.entry.EntryPoint;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.types.TypeName;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, case 4: what a direct invoker sees of a failure (Lambda hands the thrown exception's
 * type, message and stack trace back to the caller) says nothing of the implementation.
 */
class HandlerErrorsTest {
  private static final byte[] ENVELOPE =
      "{\"target\":\"a/b/c\",\"typename\":\"io.statefun.types/string\",\"value\":\"x\"}"
          .getBytes(StandardCharsets.UTF_8);

  @Test
  void anInternalFailureReachesTheCallerWithoutItsDetails() {
    StateKitHandler handler =
        new StateKitHandler(
            EntryPoint.builder()
                .envelopes(
                    payload -> {
                      throw new IllegalStateException("jdbc:postgresql://db.internal refused");
                    })
                .build());

    RuntimeException e = assertThrows(RuntimeException.class, () -> invoke(handler, ENVELOPE));

    assertFalse(e.getMessage().contains("db.internal"), e.getMessage());
    assertFalse(e.getClass().getName().startsWith("java."), e.getClass().getName());
    assertEquals(0, e.getStackTrace().length);
    assertEquals(null, e.getCause());
  }

  @Test
  void aFailedDirectInvokeOfTheRuntimeReachesTheCallerWithoutItsDetails() {
    FunctionInvokeHandler handler =
        new FunctionInvokeHandler(
            FunctionRuntime.builder(
                    StatefulFunctions.builder()
                        .withFunction(
                            TypeName.of("a", "b"),
                            (context, message) -> {
                              throw new IllegalStateException(
                                  "jdbc:postgresql://db.internal refused");
                            })
                        .build())
                .store(new InMemoryFunctionStore())
                .queue(new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30)))
                .deadLetters(new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30)))
                .build());

    RuntimeException e =
        assertThrows(
            RuntimeException.class,
            () ->
                handler.handleRequest(
                    new ByteArrayInputStream(ENVELOPE), new ByteArrayOutputStream(), null));

    assertFalse(e.getMessage().contains("db.internal"), e.getMessage());
    assertTrue(e.getMessage().contains("error "), e.getMessage());
    assertEquals(0, e.getStackTrace().length);
    assertEquals(null, e.getCause());
  }

  @Test
  void aBadPayloadIsStillNamedToTheCaller() {
    StateKitHandler handler =
        new StateKitHandler(EntryPoint.builder().envelopes(payload -> new byte[0]).build());

    RuntimeException e =
        assertThrows(
            RuntimeException.class,
            () -> invoke(handler, "{\"hello\":1}".getBytes(StandardCharsets.UTF_8)));

    assertTrue(e.getMessage().contains("Send one of"), e.getMessage());
    assertEquals(0, e.getStackTrace().length);
  }

  private static void invoke(StateKitHandler handler, byte[] payload) throws Exception {
    handler.handleRequest(new ByteArrayInputStream(payload), new ByteArrayOutputStream(), null);
  }
}
