package dev.statekit.examples.shop;

import static dev.statekit.examples.shop.ShopMessages.*;

import dev.statekit.function.Address;
import dev.statekit.function.Context;
import dev.statekit.function.EgressMessageBuilder;
import dev.statekit.function.Message;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.Reply;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code shop/cart/<user>}: a user's cart. Adding an item asks the sku's inventory to reserve it;
 * once held, the cart sends itself a {@link HoldExpired} after the hold time, with the reservation
 * id as cancellation token. Checkout cancels those delayed messages and confirms the reservations;
 * a hold that runs out first gives the stock back.
 */
public final class Cart implements StatefulFunction {
  /** The function type. */
  public static final TypeName TYPE = TypeName.of(NAMESPACE, "cart");

  /** The cart's lines, kept a week after the last message. */
  public static final ValueSpec<CartState> STATE =
      ValueSpec.named("cart")
          .withCustomType(Types.json(TypeName.of(NAMESPACE, "cart-state"), CartState.class))
          .thatExpireAfterCall(Duration.ofDays(7));

  /** How long a reservation is held when none is given. */
  public static final Duration DEFAULT_HOLD = Duration.ofMinutes(15);

  private final Duration hold;

  /** A cart that holds reservations for {@link #DEFAULT_HOLD}. */
  public Cart() {
    this(DEFAULT_HOLD);
  }

  /**
   * A cart that holds reservations for {@code hold}.
   *
   * @throws IllegalArgumentException if {@code hold} is not positive
   */
  public Cart(Duration hold) {
    if (Objects.requireNonNull(hold, "hold").isNegative() || hold.isZero()) {
      throw new IllegalArgumentException("A hold lasts a positive time, e.g. PT15M; got " + hold);
    }
    this.hold = hold;
  }

  @Override
  public void apply(Context context, Message message) {
    CartState cart = context.storage().get(STATE).orElse(CartState.EMPTY);
    String user = context.self().id();
    CartLine asked = null;
    boolean fromUser = true;
    if (message.is(VIEW_CART)) {
      reply(context, cart, null);
      return;
    } else if (message.is(ADD_ITEM)) {
      AddItem add = message.as(ADD_ITEM);
      if (add.quantity() < 1 || add.sku() == null || add.sku().isBlank()) {
        throw new IllegalArgumentException(
            "add-item needs a sku and a quantity of at least 1, got " + add);
      }
      String id = user + "-" + (cart.reservations() + 1);
      asked = new CartLine(id, add.sku(), add.quantity(), false);
      cart = cart.add(asked);
      context.send(to(inventory(add.sku()), RESERVE, new Reserve(id, add.quantity())));
    } else if (message.is(RESERVED)) {
      cart = reserved(context, cart, message.as(RESERVED));
      fromUser = false;
    } else if (message.is(HOLD_EXPIRED)) {
      fromUser = false;
      String id = message.as(HOLD_EXPIRED).reservationId();
      for (CartLine line : cart.line(id).stream().toList()) {
        context.send(to(inventory(line.sku()), RELEASE, new Release(id)));
        event(context, "hold on " + line.quantity() + " x " + line.sku() + " ran out (" + id + ")");
      }
      cart = cart.without(l -> l.reservationId().equals(id));
    } else if (message.is(REMOVE_ITEM)) {
      String sku = message.as(REMOVE_ITEM).sku();
      for (CartLine line : cart.lines()) {
        if (line.sku().equals(sku)) {
          release(context, line);
        }
      }
      cart = cart.without(l -> l.sku().equals(sku));
    } else if (message.is(CHECKOUT)) {
      cart = checkout(context, cart, message.as(CHECKOUT).orderId());
    } else {
      throw new IllegalArgumentException(
          "shop/cart takes add-item, remove-item, checkout, view-cart, reserved and"
              + " hold-expired, not "
              + message.valueTypeName());
    }
    context.storage().set(STATE, cart);
    if (fromUser) {
      reply(context, cart, asked);
    }
  }

  /**
   * Answers a call with the cart (an egress record to {@code statekit/reply}: dropped for a message
   * that is no call, and by StateKit's StateFun endpoint). The reservation is asked for, not yet
   * answered: the inventory's answer comes as a message of its own, and view-cart shows it.
   */
  private static void reply(Context context, CartState cart, CartLine asked) {
    context.send(
        EgressMessageBuilder.forEgress(Reply.EGRESS)
            .withCustomType(CART_REPLY, new CartReply(cart.lines(), asked))
            .build());
  }

  private CartState reserved(Context context, CartState cart, Reserved answer) {
    CartLine line = cart.line(answer.reservationId()).orElse(null);
    if (line == null) {
      // Removed while the inventory was answering: give the units straight back.
      if (answer.held()) {
        context.send(to(inventory(answer.sku()), RELEASE, new Release(answer.reservationId())));
      }
      return cart;
    }
    if (!answer.held()) {
      event(context, "out of stock: " + answer.sku() + " has " + answer.available() + " left");
      return cart.without(l -> l == line);
    }
    Message expire = to(context.self(), HOLD_EXPIRED, new HoldExpired(answer.reservationId()));
    context.sendAfter(hold, expire, answer.reservationId());
    event(
        context,
        "reserved "
            + line.quantity()
            + " x "
            + line.sku()
            + " for "
            + hold.toSeconds()
            + " s ("
            + line.reservationId()
            + ")");
    return cart.replace(line.asHeld());
  }

  private CartState checkout(Context context, CartState cart, String orderId) {
    List<CartLine> held = cart.lines().stream().filter(CartLine::held).toList();
    if (held.isEmpty()) {
      event(context, "checkout " + orderId + ": nothing held, nothing ordered");
      return cart;
    }
    for (CartLine line : held) {
      context.cancelDelayedMessage(line.reservationId());
      context.send(to(inventory(line.sku()), CONFIRM, new Confirm(line.reservationId())));
    }
    Order order = new Order(orderId, context.self().id(), held);
    context.send(EgressMessageBuilder.forEgress(ORDERS).withCustomType(ORDER, order).build());
    event(context, "checked out " + orderId + ": " + held.size() + " line(s)");
    return cart.without(CartLine::held);
  }

  private static void release(Context context, CartLine line) {
    if (line.held()) {
      context.cancelDelayedMessage(line.reservationId());
      context.send(to(inventory(line.sku()), RELEASE, new Release(line.reservationId())));
    }
    // A line still waiting is released when its answer comes (see reserved()).
  }

  private static void event(Context context, String text) {
    context.send(
        EgressMessageBuilder.forEgress(CART_EVENTS)
            .withValue(context.self().id() + ": " + text)
            .build());
  }

  private static Address inventory(String sku) {
    return Address.of(Inventory.TYPE, sku);
  }

  private static <T> Message to(Address target, Type<T> type, T value) {
    return MessageBuilder.forAddress(target).withCustomType(type, value).build();
  }
}
