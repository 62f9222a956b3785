package dev.statekit.runtime.store;

import java.util.Objects;

/**
 * A record of what an address applied that no longer fits in its own item (see {@link
 * FunctionStore#spillMarks}): the runtime's id for it, how far it goes as a string whose order is
 * the mark's order, and until when it must be kept.
 *
 * @param id what the mark is of, unique within its address (at most 200 characters)
 * @param position how far the address applied: a later mark of the same id compares greater
 * @param expiresAtSeconds when the store may forget it (epoch seconds)
 * @param ordered whether a later write may bring an older position, which must not replace a newer
 *     one (false for a mark that is only present or absent, such as an idempotency key)
 */
public record SpilledMark(String id, String position, long expiresAtSeconds, boolean ordered) {
  /** Checks the parts. */
  public SpilledMark {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(position, "position");
    if (id.isEmpty() || id.length() > 200) {
      throw new IllegalArgumentException("A mark id has 1 to 200 characters, got " + id.length());
    }
  }
}
