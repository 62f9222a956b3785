package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.runtime.store.AddressState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-value expiry from the value specs: after write, after call; and the item's TTL. */
abstract class ExpiryContract extends RuntimeFixture {

  @Test
  void valuesExpireOnReadAtTheRightTime() {
    FunctionRuntime runtime = runtime();
    Address a = address(TestFunctions.EXPIRING, "e");
    Address b = address(TestFunctions.EXPIRING, "never-written");

    runtime.invoke(command(a, "write:v"));
    clock.advance(Duration.ofMinutes(9).plusSeconds(59));
    runtime.invoke(command(a, "read"));
    clock.advance(Duration.ofSeconds(1));
    runtime.invoke(command(a, "read"));
    clock.advance(Duration.ofMinutes(9).plusSeconds(59));
    runtime.invoke(command(b, "read"));
    runtime.invoke(command(a, "read"));
    clock.advance(Duration.ofMinutes(10));
    runtime.invoke(command(a, "read"));

    assertEquals(
        List.of("v/v", "v/v", "-/v", "-/-", "-/v", "-/-"),
        seen.texts(),
        "after-write expires 10 min after the write; after-call 10 min after the last call");
  }

  @Test
  void theItemCarriesATtlOnlyWhenEverythingInItExpires() {
    FunctionRuntime runtime = runtime();
    Address expiring = address(TestFunctions.EXPIRING, "ttl");
    Address forever = address(TestFunctions.COUNTER, "forever");

    runtime.invoke(command(expiring, "write:v"));
    runtime.invoke(DirectInvocation.of(MessageBuilder.forAddress(forever).withValue(1L).build()));

    AddressState state = store().reload(expiring);
    long valuesExpire = state.values().get(TestFunctions.WRITTEN.name()).expiresAtMillis() / 1000;
    assertTrue(state.expiresAtSeconds() >= valuesExpire, "kept at least as long as its values");
    assertTrue(
        state.expiresAtSeconds() >= clock.millis() / 1000 + Duration.ofDays(14).toSeconds(),
        "and as long as it must remember what it applied");
    assertEquals(0, store().reload(forever).expiresAtSeconds(), "a value that never expires");
  }

  static DirectInvocation command(Address a, String command) {
    return DirectInvocation.of(MessageBuilder.forAddress(a).withValue(command).build());
  }
}
