package dev.statekit.examples;

import dev.statekit.entry.EntryPoint;
import dev.statekit.examples.fraud.Card;
import dev.statekit.examples.greeter.Audit;
import dev.statekit.examples.greeter.Greeter;
import dev.statekit.examples.greeter.Reminder;
import dev.statekit.examples.shop.Cart;
import dev.statekit.examples.shop.Inventory;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
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

  /** The variable giving the carts' hold time in seconds (default 900). */
  public static final String HOLD_SECONDS = "STATEKIT_HOLD_SECONDS";

  /** The entry point of the examples, wired from {@code variables}. */
  public static EntryPoint entryPoint(Variables variables) {
    return EntryPoint.builder().functions(functions(hold(variables))).build();
  }

  static Duration hold(Variables variables) {
    String seconds = variables.optional(HOLD_SECONDS).orElse(null);
    if (seconds == null) {
      return Cart.DEFAULT_HOLD;
    }
    try {
      return Duration.ofSeconds(Long.parseLong(seconds.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          HOLD_SECONDS + " is a number of seconds, such as 900, not '" + seconds + "'", e);
    }
  }
}
