package dev.statekit.examples.shop;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A sku's persisted value.
 *
 * @param available units that can be reserved
 * @param sold units sold
 * @param holds reservations held, by id: the cart and the quantity
 */
public record InventoryState(int available, int sold, Map<String, Hold> holds) {
  /** Copies the holds. */
  public InventoryState {
    holds = Map.copyOf(holds);
  }

  /**
   * Units held for a cart.
   *
   * @param cart the cart's address id (the user)
   * @param quantity how many
   */
  public record Hold(String cart, int quantity) {}

  static final InventoryState EMPTY = new InventoryState(0, 0, Map.of());

  InventoryState hold(String id, Hold hold) {
    Map<String, Hold> more = new LinkedHashMap<>(holds);
    more.put(id, hold);
    return new InventoryState(available - hold.quantity(), sold, more);
  }

  /** Ends a hold: its units are sold, or go back to available. */
  InventoryState end(String id, boolean sell) {
    Hold hold = holds.get(id);
    if (hold == null) {
      return this;
    }
    Map<String, Hold> fewer = new LinkedHashMap<>(holds);
    fewer.remove(id);
    return sell
        ? new InventoryState(available, sold + hold.quantity(), fewer)
        : new InventoryState(available + hold.quantity(), sold, fewer);
  }
}
