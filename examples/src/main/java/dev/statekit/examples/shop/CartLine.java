package dev.statekit.examples.shop;

/**
 * One reservation in a cart.
 *
 * @param reservationId the reservation's id, unique per cart ({@code <user>-<n>})
 * @param sku what is reserved
 * @param quantity how many
 * @param held true once the inventory holds the units; false while the cart waits for its answer
 */
public record CartLine(String reservationId, String sku, int quantity, boolean held) {
  CartLine asHeld() {
    return new CartLine(reservationId, sku, quantity, true);
  }
}
