package dev.statekit.examples;

import dev.statekit.entry.EntryPoint;
import dev.statekit.examples.fraud.Card;
import dev.statekit.examples.greeter.Audit;
import dev.statekit.examples.greeter.Greeter;
import dev.statekit.examples.greeter.Reminder;
import dev.statekit.examples.shop.Cart;
import dev.statekit.examples.shop.Inventory;
import dev.statekit.function.StatefulFunctions;
import java.time.Duration;

/**
 * Every example behind one entry point: the greeter family, the shop (carts and inventory) and the
 * card-blocking function of the fraud check.
 */
public final class ExampleApp {
  private ExampleApp() {}

  /** The example functions, carts holding reservations for {@code hold}. */
  public static StatefulFunctions functions(Duration hold) {
    return StatefulFunctions.builder()
        .withFunction(Greeter.TYPE, new Greeter(), Greeter.SEEN)
        .withFunction(Audit.TYPE, new Audit(), Audit.TOTAL)
        .withFunction(Reminder.TYPE, new Reminder())
        .withFunction(Cart.TYPE, new Cart(hold), Cart.STATE)
        .withFunction(Inventory.TYPE, new Inventory(), Inventory.STATE)
        .withFunction(Card.TYPE, new Card(), Card.BLOCK)
        .build();
  }

  /** The entry point serving the example functions to StateFun runtimes. */
  public static EntryPoint entryPoint() {
    return EntryPoint.builder().functions(functions(Cart.DEFAULT_HOLD)).build();
  }
}
