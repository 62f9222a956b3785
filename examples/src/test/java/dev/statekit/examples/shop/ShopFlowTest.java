package dev.statekit.examples.shop;

import static dev.statekit.examples.shop.ShopMessages.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunction;
import dev.statekit.testing.TestContext;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Carts and inventory talking to each other, delivered in memory by a tiny loop. */
class ShopFlowTest {
  private final Map<Address, TestContext> contexts = new HashMap<>();
  private final Deque<Delivery> inFlight = new ArrayDeque<>();
  private final List<DelayedMessage> pending = new ArrayList<>();
  private final List<String> events = new ArrayList<>();
  private final List<Order> orders = new ArrayList<>();

  @Test
  void checkoutSellsWhatWasHeldAndAnExpiredHoldGoesBackOnTheShelf() throws Exception {
    send(Address.of(Inventory.TYPE, "book"), RESTOCK, new Restock(3));
    send(Address.of(Cart.TYPE, "ada"), ADD_ITEM, new AddItem("book", 2));
    send(Address.of(Cart.TYPE, "bob"), ADD_ITEM, new AddItem("book", 2)); // only 1 left
    send(Address.of(Cart.TYPE, "ada"), CHECKOUT, new Checkout("order-1"));

    assertEquals(
        List.of(
            "ada: reserved 2 x book for 60 s (ada-1)",
            "bob: out of stock: book has 1 left",
            "ada: checked out order-1: 1 line(s)"),
        events);
    assertEquals(List.of(), pending); // ada's hold was cancelled at checkout
    assertEquals(new InventoryState(1, 2, Map.of()), stock("book"));

    send(Address.of(Cart.TYPE, "bob"), ADD_ITEM, new AddItem("book", 1));
    assertEquals(
        new InventoryState(0, 2, Map.of("bob-2", new InventoryState.Hold("bob", 1))),
        stock("book"));
    fireDelayed(); // bob never checks out
    send(Address.of(Cart.TYPE, "bob"), CHECKOUT, new Checkout("order-2"));

    assertEquals(new InventoryState(1, 2, Map.of()), stock("book"));
    assertEquals("bob: hold on 1 x book ran out (bob-2)", events.get(4));
    assertEquals("bob: checkout order-2: nothing held, nothing ordered", events.get(5));
    assertEquals(List.of("order-1"), orders.stream().map(Order::orderId).toList());
  }

  private <T> void send(Address to, dev.statekit.types.Type<T> type, T value) throws Exception {
    inFlight.add(
        new Delivery(MessageBuilder.forAddress(to).withCustomType(type, value).build(), null));
    deliver();
  }

  private void fireDelayed() throws Exception {
    List<DelayedMessage> due = new ArrayList<>(pending);
    pending.clear();
    due.forEach(d -> inFlight.add(new Delivery(d.message(), null)));
    deliver();
  }

  private void deliver() throws Exception {
    while (!inFlight.isEmpty()) {
      Delivery next = inFlight.poll();
      Address target = next.message().targetAddress();
      TestContext context = contexts.computeIfAbsent(target, TestContext::forTarget);
      context.withCaller(next.caller()).clearEffects();
      function(target).apply(context, next.message());
      context.sentMessages().forEach(m -> inFlight.add(new Delivery(m, target)));
      pending.addAll(context.delayedMessages());
      for (String token : context.cancelledTokens()) {
        pending.removeIf(
            d ->
                d.message().targetAddress().equals(target)
                    && d.cancellationToken().orElse("").equals(token));
      }
      events.addAll(context.egressStrings(CART_EVENTS));
      context.egressMessages().stream()
          .filter(e -> e.targetEgress().equals(ORDERS))
          .forEach(e -> orders.add(e.as(ORDER)));
    }
  }

  private record Delivery(Message message, Address caller) {}

  private static StatefulFunction function(Address target) {
    return target.type().equals(Cart.TYPE) ? new Cart(Duration.ofMinutes(1)) : new Inventory();
  }

  private InventoryState stock(String sku) {
    return contexts
        .get(Address.of(Inventory.TYPE, sku))
        .storage()
        .get(Inventory.STATE)
        .orElseThrow();
  }
}
