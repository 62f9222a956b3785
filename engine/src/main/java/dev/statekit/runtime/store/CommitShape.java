package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.HashSet;
import java.util.Set;

/**
 * What DynamoDB requires of the transaction a commit becomes, checked before it is sent (and by the
 * in-memory store, so that tests refuse what DynamoDB would): at most 100 actions, at most 4 MB,
 * and one action per item. DynamoDB answers a transaction that names an item twice with a
 * ValidationException, never with a conflict, so retrying it cannot help.
 */
public final class CommitShape {
  static final int MAX_ACTIONS = 100;
  static final long MAX_BYTES = 4L * 1024 * 1024;

  private CommitShape() {}

  /**
   * Checks {@code commit}.
   *
   * @throws StoreException with {@link StoreException.Reason#INVALID_REQUEST} saying what is wrong
   */
  public static void check(Commit commit) {
    Address self = commit.state().address();
    Set<Object> items = new HashSet<>();
    items.add(self);
    Set<Address> owners = new HashSet<>();
    long bytes = DynamoDbStateItems.sizeOf(commit.state());
    for (TimerChange change : commit.timerChanges()) {
      Object item;
      if (change instanceof TimerChange.ReleaseToken release) {
        // One update frees all of an owner's tokens: the owner is one item however many.
        if (!owners.add(release.owner())) {
          continue;
        }
        item = release.owner();
      } else {
        item = timerOf(change);
        if (change instanceof TimerChange.Schedule schedule) {
          bytes += DynamoDbItemSize.of(DynamoDbTimerItems.toItem(schedule.timer()));
        }
      }
      if (!items.add(item)) {
        throw new StoreException(
            StoreException.Reason.INVALID_REQUEST,
            "A commit of "
                + self
                + " would change "
                + describe(item)
                + " twice in one transaction, which DynamoDB refuses");
      }
    }
    if (items.size() > MAX_ACTIONS) {
      throw new StoreException(
          StoreException.Reason.INVALID_REQUEST,
          "A commit of "
              + self
              + " would write "
              + items.size()
              + " items, more than the "
              + MAX_ACTIONS
              + " a DynamoDB transaction holds");
    }
    if (bytes > MAX_BYTES) {
      throw new StoreException(
          StoreException.Reason.INVALID_REQUEST,
          "A commit of "
              + self
              + " would write "
              + bytes
              + " bytes, more than the 4 MB a DynamoDB transaction holds");
    }
  }

  /** The timer a change touches, or {@code null} for a token release. */
  static TimerKey timerOf(TimerChange change) {
    if (change instanceof TimerChange.Schedule schedule) {
      return schedule.timer().key();
    }
    if (change instanceof TimerChange.Cancel cancel) {
      return cancel.key();
    }
    if (change instanceof TimerChange.Consume consume) {
      return consume.key();
    }
    return null;
  }

  private static String describe(Object item) {
    return item instanceof TimerKey key ? "timer " + key.asString() : "the item of " + item;
  }
}
