package dev.statekit.runtime.store;

/**
 * The parts that timer keys and outbox keys share: a shard, a due time in epoch milliseconds and an
 * id, written {@code shard:dueAtMillis:id} and stored with the due time first in the sort key, so a
 * query on a shard reads what is due first.
 */
public final class SortedKeys {
  /** The largest due time a key can hold: its 13 digits reach into the year 2286. */
  static final long MAX_DUE_AT_MILLIS = 9_999_999_999_999L;

  private SortedKeys() {}

  static void check(String kind, int shard, long dueAtMillis, String id) {
    if (id == null) {
      throw new NullPointerException("id");
    }
    if (shard < 0) {
      throw new IllegalArgumentException("A " + kind + " shard is 0 or more, got " + shard);
    }
    if (dueAtMillis < 0 || dueAtMillis > MAX_DUE_AT_MILLIS) {
      throw new IllegalArgumentException(
          "A "
              + kind
              + " is due between the epoch and "
              + MAX_DUE_AT_MILLIS
              + " ms, got "
              + dueAtMillis);
    }
    if (id.isEmpty() || !id.chars().allMatch(SortedKeys::isIdChar)) {
      throw new IllegalArgumentException(
          "A " + kind + " id is made of letters, digits, '-' and '_', got '" + id + "'");
    }
  }

  static String asString(int shard, long dueAtMillis, String id) {
    return shard + ":" + dueAtMillis + ":" + id;
  }

  /** The three parts of {@code shard:dueAtMillis:id}, unchecked. */
  static String[] parts(String kind, String text) {
    int first = text.indexOf(':');
    int second = first < 0 ? -1 : text.indexOf(':', first + 1);
    if (second < 0) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a " + kind + " key; expected shard:dueAtMillis:id");
    }
    return new String[] {
      text.substring(0, first), text.substring(first + 1, second), text.substring(second + 1)
    };
  }

  static int shard(String kind, String text, String shard) {
    try {
      return Integer.parseInt(shard);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a " + kind + " key; expected shard:dueAtMillis:id", e);
    }
  }

  static long due(String kind, String text, String due) {
    try {
      return Long.parseLong(due);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a " + kind + " key; expected shard:dueAtMillis:id", e);
    }
  }

  /** The sort key of an item due at {@code dueAtMillis}: 13 digits, {@code #}, the id. */
  static String sortKey(long dueAtMillis, String id) {
    return String.format("%013d#%s", dueAtMillis, id);
  }

  /** The first sort key after every item due at or before {@code dueAtMillis}. */
  public static String sortKeyAfter(long dueAtMillis) {
    return String.format("%013d$", dueAtMillis);
  }

  private static boolean isIdChar(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_';
  }
}
