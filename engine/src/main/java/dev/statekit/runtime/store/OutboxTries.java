package dev.statekit.runtime.store;

import java.util.Set;

/**
 * How far the tries to deliver one address's registered outbox got.
 *
 * @param attempts how many tries failed
 * @param out what of the outbox the failed tries delivered all the same, named as the runtime names
 *     its entries (an egress record, a dead letter): a later try skips them, so that a sink that
 *     took its record is not sent it again while another sink of the outbox is down
 */
public record OutboxTries(int attempts, Set<String> out) {
  /** Copies the set. */
  public OutboxTries {
    out = Set.copyOf(out);
  }

  /** No try yet. */
  public static final OutboxTries NONE = new OutboxTries(0, Set.of());
}
