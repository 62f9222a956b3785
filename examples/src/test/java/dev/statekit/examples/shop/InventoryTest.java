package dev.statekit.examples.shop;

import static dev.statekit.examples.shop.ShopMessages.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.function.Address;
import dev.statekit.testing.TestContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InventoryTest {
  private static final Address ADA = Address.of(Cart.TYPE, "ada");

  private final Inventory inventory = new Inventory();
  private final TestContext context =
      TestContext.forTarget(Address.of(Inventory.TYPE, "book")).withCaller(ADA);

  @Test
  void holdsWhatIsAvailableAndAnswersTheCart() throws Exception {
    restock(3);

    inventory.apply(context, context.message(RESERVE, new Reserve("ada-1", 2)));

    assertEquals(ADA, context.sentMessages().get(0).targetAddress());
    assertEquals(
        new Reserved("ada-1", "book", 2, true, 1), context.sentMessages().get(0).as(RESERVED));
    assertEquals(
        new InventoryState(1, 0, Map.of("ada-1", new InventoryState.Hold("ada", 2))), state());
  }

  @Test
  void refusesMoreThanIsAvailable() throws Exception {
    restock(1);

    inventory.apply(context, context.message(RESERVE, new Reserve("ada-1", 2)));

    assertEquals(
        new Reserved("ada-1", "book", 2, false, 1), context.sentMessages().get(0).as(RESERVED));
    assertEquals(new InventoryState(1, 0, Map.of()), state());
  }

  @Test
  void aRepeatedReservationIsAnsweredAgainWithoutHoldingTwice() throws Exception {
    restock(3);
    inventory.apply(context, context.message(RESERVE, new Reserve("ada-1", 2)));

    inventory.apply(context, context.message(RESERVE, new Reserve("ada-1", 2)));

    assertEquals(
        new Reserved("ada-1", "book", 2, true, 1), context.sentMessages().get(1).as(RESERVED));
    assertEquals(1, state().available());
  }

  @Test
  void confirmSellsAndReleaseGivesBack() throws Exception {
    restock(5);
    inventory.apply(context, context.message(RESERVE, new Reserve("ada-1", 2)));
    inventory.apply(context, context.message(RESERVE, new Reserve("ada-2", 1)));

    inventory.apply(context, context.message(CONFIRM, new Confirm("ada-1")));
    inventory.apply(context, context.message(RELEASE, new Release("ada-2")));
    inventory.apply(context, context.message(RELEASE, new Release("unknown")));

    assertEquals(new InventoryState(3, 2, Map.of()), state());
  }

  @Test
  void aReservationNeedsACartToAnswer() throws Exception {
    TestContext fromIngress = TestContext.forTarget(Address.of(Inventory.TYPE, "book"));

    assertThrows(
        IllegalArgumentException.class,
        () -> inventory.apply(fromIngress, fromIngress.message(RESERVE, new Reserve("x", 1))));
  }

  private void restock(int quantity) throws Exception {
    inventory.apply(context, context.message(RESTOCK, new Restock(quantity)));
  }

  private InventoryState state() {
    return context.storage().get(Inventory.STATE).orElseThrow();
  }
}
