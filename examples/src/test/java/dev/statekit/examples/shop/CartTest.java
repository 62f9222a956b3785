package dev.statekit.examples.shop;

import static dev.statekit.examples.shop.ShopMessages.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.testing.TestContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CartTest {
  private static final Address ADA = Address.of(Cart.TYPE, "ada");
  private static final Address BOOKS = Address.of(Inventory.TYPE, "book");

  private final Cart cart = new Cart(Duration.ofMinutes(15));
  private final TestContext context = TestContext.forTarget(ADA);

  @Test
  void addingAnItemAsksItsInventoryToReserveIt() throws Exception {
    cart.apply(context, context.message(ADD_ITEM, new AddItem("book", 2)));

    var sent = context.sentMessages().get(0);
    assertEquals(BOOKS, sent.targetAddress());
    assertEquals(new Reserve("ada-1", 2), sent.as(RESERVE));
    assertEquals(
        List.of(new CartLine("ada-1", "book", 2, false)),
        context.storage().get(Cart.STATE).orElseThrow().lines());
  }

  @Test
  void addingAnItemAnswersACallWithTheCartAndTheReservationAskedFor() throws Exception {
    cart.apply(context, context.message(ADD_ITEM, new AddItem("book", 2)));
    context.clearEffects();
    cart.apply(context, context.message(ADD_ITEM, new AddItem("pen", 1)));

    List<CartReply> replies =
        context.egressMessages().stream()
            .filter(e -> e.targetEgress().equals(dev.statekit.function.Reply.EGRESS))
            .map(e -> e.as(CART_REPLY))
            .toList();
    CartLine pen = new CartLine("ada-2", "pen", 1, false);
    assertEquals(
        List.of(new CartReply(List.of(new CartLine("ada-1", "book", 2, false), pen), pen)),
        replies);

    context.clearEffects();
    cart.apply(context, context.message(RESERVED, new Reserved("ada-1", "book", 2, true, 8)));
    assertTrue(
        context.egressMessages().stream()
            .noneMatch(e -> e.targetEgress().equals(dev.statekit.function.Reply.EGRESS)),
        "the inventory's answer is no call: nothing to reply");
    context.clearEffects();
    cart.apply(context, context.message(VIEW_CART, new ViewCart()));
    assertEquals(
        new CartReply(List.of(new CartLine("ada-1", "book", 2, true), pen), null),
        context.egressMessages().get(0).as(CART_REPLY));
  }

  @Test
  void aHeldReservationStartsACancellableHold() throws Exception {
    add("book", 2);

    cart.apply(context, context.message(RESERVED, new Reserved("ada-1", "book", 2, true, 8)));

    DelayedMessage hold = context.delayedMessages().get(0);
    assertEquals(Duration.ofMinutes(15), hold.delay());
    assertEquals("ada-1", hold.cancellationToken().orElseThrow());
    assertEquals(ADA, hold.message().targetAddress());
    assertEquals(new HoldExpired("ada-1"), hold.message().as(HOLD_EXPIRED));
    assertTrue(context.storage().get(Cart.STATE).orElseThrow().lines().get(0).held());
    assertEquals(
        List.of("ada: reserved 2 x book for 900 s (ada-1)"), context.egressStrings(CART_EVENTS));
  }

  @Test
  void checkoutCancelsTheHoldsConfirmsAndEmitsTheOrder() throws Exception {
    add("book", 2);
    cart.apply(context, context.message(RESERVED, new Reserved("ada-1", "book", 2, true, 8)));
    add("pen", 1); // still waiting for its inventory: not part of the order
    context.clearEffects();

    cart.apply(context, context.message(CHECKOUT, new Checkout("order-7")));

    assertEquals(List.of("ada-1"), context.cancelledTokens());
    assertEquals(List.of(), context.pendingDelayedMessages());
    assertEquals(new Confirm("ada-1"), context.sentMessages().get(0).as(CONFIRM));
    Order order = context.egressMessages().get(0).as(ORDER);
    assertEquals(
        new Order("order-7", "ada", List.of(new CartLine("ada-1", "book", 2, true))), order);
    assertEquals(
        List.of(new CartLine("ada-2", "pen", 1, false)),
        context.storage().get(Cart.STATE).orElseThrow().lines());
  }

  @Test
  void aHoldThatRunsOutGivesTheStockBack() throws Exception {
    add("book", 2);
    cart.apply(context, context.message(RESERVED, new Reserved("ada-1", "book", 2, true, 8)));
    context.clearEffects();

    cart.apply(context, context.message(HOLD_EXPIRED, new HoldExpired("ada-1")));

    assertEquals(BOOKS, context.sentMessages().get(0).targetAddress());
    assertEquals(new Release("ada-1"), context.sentMessages().get(0).as(RELEASE));
    assertEquals(List.of(), context.storage().get(Cart.STATE).orElseThrow().lines());
    assertEquals(
        List.of("ada: hold on 2 x book ran out (ada-1)"), context.egressStrings(CART_EVENTS));
  }

  @Test
  void outOfStockDropsTheLine() throws Exception {
    add("book", 5);

    cart.apply(context, context.message(RESERVED, new Reserved("ada-1", "book", 5, false, 3)));

    assertEquals(List.of(), context.storage().get(Cart.STATE).orElseThrow().lines());
    assertEquals(List.of(), context.delayedMessages());
    assertEquals(List.of("ada: out of stock: book has 3 left"), context.egressStrings(CART_EVENTS));
  }

  @Test
  void removingAnItemReleasesItAndAnAnswerArrivingAfterIsGivenBack() throws Exception {
    add("book", 1);
    cart.apply(context, context.message(RESERVED, new Reserved("ada-1", "book", 1, true, 0)));
    add("book", 1);
    context.clearEffects();

    cart.apply(context, context.message(REMOVE_ITEM, new RemoveItem("book")));
    assertEquals(List.of("ada-1"), context.cancelledTokens());
    assertEquals(new Release("ada-1"), context.sentMessages().get(0).as(RELEASE));
    context.clearEffects();

    cart.apply(context, context.message(RESERVED, new Reserved("ada-2", "book", 1, true, 0)));
    assertEquals(new Release("ada-2"), context.sentMessages().get(0).as(RELEASE));
    assertEquals(List.of(), context.delayedMessages());
  }

  @Test
  void badInputFailsTheMessageWithAReason() throws Exception {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> cart.apply(context, context.message(ADD_ITEM, new AddItem("book", 0))));
    assertTrue(e.getMessage().contains("quantity of at least 1"), e.getMessage());
    var other =
        assertThrows(
            IllegalArgumentException.class, () -> cart.apply(context, context.message("hi")));
    assertTrue(other.getMessage().contains("io.statefun.types/string"), other.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Cart(Duration.ZERO));
  }

  private void add(String sku, int quantity) throws Exception {
    cart.apply(context, context.message(ADD_ITEM, new AddItem(sku, quantity)));
  }
}
