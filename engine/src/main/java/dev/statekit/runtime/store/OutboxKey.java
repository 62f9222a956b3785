package dev.statekit.runtime.store;

/**
 * Where a batch registers the outboxes it is about to commit (see {@link
 * FunctionStore#registerOutboxes}): a shard, the moment from which a sweep may take over their
 * delivery, and an id unique to the batch.
 *
 * @param shard the shard, from 0
 * @param dueAtMillis epoch milliseconds from which a sweep delivers what is still registered
 * @param id unique, made of letters, digits, {@code -} and {@code _}
 */
public record OutboxKey(int shard, long dueAtMillis, String id) {
  /** Checks the parts. */
  public OutboxKey {
    SortedKeys.check("outbox", shard, dueAtMillis, id);
  }

  /** {@code shard:dueAtMillis:id}, the form {@link #parse} reads. */
  public String asString() {
    return SortedKeys.asString(shard, dueAtMillis, id);
  }

  /**
   * Reads {@link #asString()}'s form.
   *
   * @throws IllegalArgumentException if {@code text} is not of that form
   */
  public static OutboxKey parse(String text) {
    String[] parts = SortedKeys.parts("outbox", text);
    return new OutboxKey(
        SortedKeys.shard("outbox", text, parts[0]),
        SortedKeys.due("outbox", text, parts[1]),
        parts[2]);
  }
}
