package dev.statekit.runtime.internal;

import dev.statekit.bus.BusMessage;
import dev.statekit.function.Address;
import dev.statekit.runtime.internal.data.DeadLetter;
import dev.statekit.runtime.store.OutboxKey;
import dev.statekit.runtime.store.StoreException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What becomes of an outbox after a delivery: taken off its registration once out, or, when what
 * did not go out has been tried as often as a message may be ({@code maxAttempts}, counted on its
 * registration whoever tried: its batch, a later commit of its address, the sweep), dead-lettered
 * with the error, which also settles it. An outbox is never dropped otherwise.
 */
final class OutboxOutcomes {
  private OutboxOutcomes() {}

  /**
   * After the {@code tries}-th try of {@code pending} failed: whether that was its last, and what
   * did not go out was dead-lettered (it is then settled).
   */
  static boolean deadLetterIfLast(
      RuntimeSettings settings, PendingOutbox pending, Undelivered undelivered, int tries) {
    return tries >= settings.maxAttempts && deadLetter(settings, pending, undelivered, tries);
  }

  /**
   * Counts a failed try of the outboxes of the addresses of {@code out} on their registration, with
   * what of each went out all the same. Should that fail, they are only tried more often than
   * {@code maxAttempts} before their dead letters, and what went out may go again.
   */
  static void tried(RuntimeSettings settings, OutboxKey key, Map<Address, Set<String>> out) {
    try {
      settings.store.outboxesTried(key, out, settings.clock.millis());
    } catch (StoreException e) {
      // As said.
    }
  }

  /**
   * Dead-letters what of {@code pending} did not go out.
   *
   * @return whether every dead letter was sent: the outbox is then settled
   */
  private static boolean deadLetter(
      RuntimeSettings settings, PendingOutbox pending, Undelivered undelivered, int attempts) {
    if (settings.deadLetters == null || !undelivered.deadLetters.isEmpty()) {
      // No dead-letter queue, or its own dead letters did not go out: it can only be tried again.
      return false;
    }
    List<BusMessage> letters = new ArrayList<>();
    for (DeadLetter letter : DeadLetters.ofUndelivered(pending, undelivered, attempts)) {
      letters.add(DeadLetters.message(letter));
    }
    if (!DeadLetters.send(settings.deadLetters, letters, letters).isEmpty()) {
      return false;
    }
    return true;
  }

  /**
   * Takes {@code addresses} off the registration {@code key}. A failure here costs only a repeated
   * delivery, by a later commit or the sweep, which receivers and keyed sinks drop.
   */
  static void settle(RuntimeSettings settings, OutboxKey key, Collection<Address> addresses) {
    try {
      settings.store.settleOutboxes(key, addresses);
    } catch (StoreException e) {
      // As said.
    }
  }
}
