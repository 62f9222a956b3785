package dev.statekit.examples.shop;

import static dev.statekit.examples.shop.ShopMessages.*;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;

/**
 * {@code shop/inventory/<sku>}: the stock of one sku. Holds units for carts ({@link Reserve},
 * answered with {@link Reserved} to the caller), then sells them ({@link Confirm}) or takes them
 * back ({@link Release}). Repeating a reservation id answers the same again.
 */
public final class Inventory implements StatefulFunction {
  /** The function type. */
  public static final TypeName TYPE = TypeName.of(NAMESPACE, "inventory");

  /** The sku's stock and holds. */
  public static final ValueSpec<InventoryState> STATE =
      ValueSpec.named("stock")
          .withCustomType(
              Types.json(TypeName.of(NAMESPACE, "inventory-state"), InventoryState.class));

  @Override
  public void apply(Context context, Message message) {
    InventoryState stock = context.storage().get(STATE).orElse(InventoryState.EMPTY);
    if (message.is(RESTOCK)) {
      int quantity = message.as(RESTOCK).quantity();
      if (quantity < 1) {
        throw new IllegalArgumentException("restock adds at least 1 unit, got " + quantity);
      }
      stock = new InventoryState(stock.available() + quantity, stock.sold(), stock.holds());
    } else if (message.is(RESERVE)) {
      stock = reserve(context, stock, message.as(RESERVE));
    } else if (message.is(CONFIRM)) {
      stock = stock.end(message.as(CONFIRM).reservationId(), true);
    } else if (message.is(RELEASE)) {
      stock = stock.end(message.as(RELEASE).reservationId(), false);
    } else {
      throw new IllegalArgumentException(
          "shop/inventory takes restock, reserve, confirm and release, not "
              + message.valueTypeName());
    }
    context.storage().set(STATE, stock);
  }

  private static InventoryState reserve(Context context, InventoryState stock, Reserve reserve) {
    Address cart =
        context
            .caller()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "reserve comes from a cart (the caller gets the answer); send add-item to"
                            + " shop/cart instead"));
    String sku = context.self().id();
    InventoryState.Hold existing = stock.holds().get(reserve.reservationId());
    boolean held = existing != null || stock.available() >= reserve.quantity();
    if (existing == null && held) {
      stock =
          stock.hold(
              reserve.reservationId(), new InventoryState.Hold(cart.id(), reserve.quantity()));
    }
    Reserved answer =
        new Reserved(reserve.reservationId(), sku, reserve.quantity(), held, stock.available());
    context.send(MessageBuilder.forAddress(cart).withCustomType(RESERVED, answer).build());
    return stock;
  }
}
