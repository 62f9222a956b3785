package dev.statekit.examples.shop;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A cart's persisted value: its lines and how many reservations it has made (which numbers the next
 * one, so a replayed message makes the same id).
 *
 * @param lines the reservations, in the order they were made
 * @param reservations how many reservations this cart has made so far
 */
public record CartState(List<CartLine> lines, int reservations) {
  /** Copies the lines. */
  public CartState {
    lines = List.copyOf(lines);
  }

  static final CartState EMPTY = new CartState(List.of(), 0);

  Optional<CartLine> line(String reservationId) {
    return lines.stream().filter(l -> l.reservationId().equals(reservationId)).findFirst();
  }

  CartState add(CartLine line) {
    List<CartLine> more = new ArrayList<>(lines);
    more.add(line);
    return new CartState(more, reservations + 1);
  }

  CartState replace(CartLine line) {
    List<CartLine> changed = new ArrayList<>();
    lines.forEach(l -> changed.add(l.reservationId().equals(line.reservationId()) ? line : l));
    return new CartState(changed, reservations);
  }

  CartState without(Predicate<CartLine> drop) {
    return new CartState(lines.stream().filter(drop.negate()).toList(), reservations);
  }
}
