package dev.statekit.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.function.Address;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import org.junit.jupiter.api.Test;

class AddressResolverTest {
  private static final TypeName GREETER = TypeName.of("example", "greeter");
  private static final TypeName NESTED = TypeName.of("com.example/shop", "orders");

  @Test
  void readsAddressesWhoseNamespaceOrIdHoldSlashes() {
    AddressResolver targets =
        new AddressResolver(
            StatefulFunctions.builder()
                .withFunction(GREETER, (c, m) -> {})
                .withFunction(NESTED, (c, m) -> {})
                .build());

    assertEquals(Address.of(GREETER, "a/b"), targets.parse("example/greeter/a/b"));
    assertEquals(Address.of(NESTED, "42"), targets.parse("com.example/shop/orders/42"));
    var unknown = assertThrows(InvalidEnvelopeException.class, () -> targets.parse("example/x/1"));
    assertTrue(unknown.getMessage().contains("example/greeter"), unknown.getMessage());
    assertThrows(InvalidEnvelopeException.class, () -> targets.parse("example/greeter/"));
  }

  @Test
  void refusesTypesThatMakeAddressesAmbiguous() {
    StatefulFunctions ambiguous =
        StatefulFunctions.builder()
            .withFunction(TypeName.of("a", "b"), (c, m) -> {})
            .withFunction(TypeName.of("a/b", "c"), (c, m) -> {})
            .build();

    var refused =
        assertThrows(IllegalArgumentException.class, () -> new AddressResolver(ambiguous));

    assertTrue(refused.getMessage().contains("ambiguous"), refused.getMessage());
  }
}
