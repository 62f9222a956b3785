package dev.statekit.examples.shop;

import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;

/** The shop's function types, message types (JSON) and egresses. */
public final class ShopMessages {
  private ShopMessages() {}

  /** The namespace of every shop type. */
  public static final String NAMESPACE = "shop";

  /** A user adds {@code quantity} of {@code sku} to their cart. */
  public record AddItem(String sku, int quantity) {}

  /** A user takes every unit of {@code sku} out of their cart. */
  public record RemoveItem(String sku) {}

  /** A user checks out what is reserved in their cart, as order {@code orderId}. */
  public record Checkout(String orderId) {}

  /** A user asks what is in their cart (a call's message: it changes nothing, the reply tells). */
  public record ViewCart() {}

  /**
   * A cart's reply to a call (add-item, remove-item, checkout, view-cart): its lines after the
   * message, each held or still waiting for the inventory's answer, and for add-item the line of
   * the reservation it asked for.
   */
  public record CartReply(java.util.List<CartLine> lines, CartLine reservation) {}

  /** A cart asks an inventory to hold {@code quantity} units for reservation {@code id}. */
  public record Reserve(String reservationId, int quantity) {}

  /** The inventory's answer to {@link Reserve}: held or not, and how many are left. */
  public record Reserved(
      String reservationId, String sku, int quantity, boolean held, int available) {}

  /** A cart gives the stock of a reservation back. */
  public record Release(String reservationId) {}

  /** A cart sold the units of a reservation. */
  public record Confirm(String reservationId) {}

  /** The cart's delayed message to itself: the hold of a reservation ran out. */
  public record HoldExpired(String reservationId) {}

  /** New units of a sku arrive. */
  public record Restock(int quantity) {}

  /** A completed order: the lines checked out. */
  public record Order(String orderId, String user, java.util.List<CartLine> lines) {}

  /** {@link AddItem}, to a cart. */
  public static final Type<AddItem> ADD_ITEM = json("add-item", AddItem.class);

  /** {@link RemoveItem}, to a cart. */
  public static final Type<RemoveItem> REMOVE_ITEM = json("remove-item", RemoveItem.class);

  /** {@link Checkout}, to a cart. */
  public static final Type<Checkout> CHECKOUT = json("checkout", Checkout.class);

  /** {@link ViewCart}, to a cart. */
  public static final Type<ViewCart> VIEW_CART = json("view-cart", ViewCart.class);

  /** {@link CartReply}, a cart's reply to a call. */
  public static final Type<CartReply> CART_REPLY = json("cart-reply", CartReply.class);

  /** {@link Reserve}, to an inventory. */
  public static final Type<Reserve> RESERVE = json("reserve", Reserve.class);

  /** {@link Reserved}, to the cart that asked. */
  public static final Type<Reserved> RESERVED = json("reserved", Reserved.class);

  /** {@link Release}, to an inventory. */
  public static final Type<Release> RELEASE = json("release", Release.class);

  /** {@link Confirm}, to an inventory. */
  public static final Type<Confirm> CONFIRM = json("confirm", Confirm.class);

  /** {@link HoldExpired}, a cart's delayed message to itself. */
  public static final Type<HoldExpired> HOLD_EXPIRED = json("hold-expired", HoldExpired.class);

  /** {@link Restock}, to an inventory. */
  public static final Type<Restock> RESTOCK = json("restock", Restock.class);

  /** {@link Order}, the records of the {@link #ORDERS} egress. */
  public static final Type<Order> ORDER = json("order", Order.class);

  /** Orders, one JSON {@link Order} per checkout. */
  public static final TypeName ORDERS = TypeName.of(NAMESPACE, "orders");

  /** What happens in carts, one line of text each. */
  public static final TypeName CART_EVENTS = TypeName.of(NAMESPACE, "cart-events");

  private static <T> Type<T> json(String name, Class<T> type) {
    return Types.json(TypeName.of(NAMESPACE, name), type);
  }
}
