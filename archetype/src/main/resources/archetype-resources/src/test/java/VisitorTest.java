package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.function.Address;
import dev.statekit.testing.TestContext;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The function alone, with no server: {@link TestContext} records what it stores and sends. */
class VisitorTest {
  private final Visitor visitor = new Visitor();
  private final TestContext context = TestContext.forTarget(Address.of(Visitor.TYPE, "ada"));

  @Test
  void eachVisitIsCountedAndGreeted() throws Exception {
    visitor.apply(context, context.message("/home"));
    visitor.apply(context, context.message("/pricing"));

    assertEquals(Optional.of(2), context.storage().get(Visitor.VISITS));
    assertEquals(
        List.of("Welcome to /home, ada (visit 1)", "Welcome to /pricing, ada (visit 2)"),
        context.egressStrings(Visitor.GREETINGS));
  }

  @Test
  void aVisitWithNoPageIsRefusedAndCountsNothing() {
    assertThrows(IllegalArgumentException.class, () -> visitor.apply(context, context.message(" ")));

    assertEquals(Optional.empty(), context.storage().get(Visitor.VISITS));
  }
}
