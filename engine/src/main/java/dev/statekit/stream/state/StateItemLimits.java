package dev.statekit.stream.state;

import dev.statekit.StateKitException.Reason;
import java.nio.charset.StandardCharsets;

/**
 * What every {@link StateTable} refuses, as DynamoDB does, so that state that checkpoints in memory
 * checkpoints on AWS too: an item over 400 KB (less room for its keys and attribute names), and a
 * key past DynamoDB's key sizes (2,048 bytes for a partition key, the table's prefix included;
 * 1,024 for a collection item's sort key). Each is a {@link StateStoreException} with {@code
 * INVALID_REQUEST} naming what is too large and what to do.
 */
public final class StateItemLimits {
  /** The most bytes of a key's state with its previous version, or of a collection item. */
  public static final int MAX_VALUE_BYTES = 390 * 1024;

  /** DynamoDB's partition key, less the table's prefix ({@code pipe#}). */
  private static final int MAX_PARTITION_BYTES = 2048 - 5;

  /** DynamoDB's sort key, less a collection item's prefix ({@code item#}). */
  private static final int MAX_SORT_BYTES = 1024 - 5;

  private StateItemLimits() {}

  /**
   * The index of the first half character of {@code text} (an unpaired surrogate, as cutting a
   * string inside an emoji leaves), or -1: DynamoDB cannot carry such a string in a key at all.
   */
  public static int halfCharacterAt(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  private static void refuseHalfCharacters(String what, String text) {
    int at = halfCharacterAt(text);
    if (at >= 0) {
      throw new StateStoreException(
          Reason.INVALID_REQUEST,
          what
              + " '"
              + shortened(text)
              + "' holds half a character at index "
              + at
              + " (an unpaired surrogate, as cutting a string inside an emoji leaves), which no"
              + " DynamoDB key can hold: cut keys at whole characters (code points)");
    }
  }

  /** Refuses {@code key} of {@code scope}, to read, write or delete, if no table can hold it. */
  public static void checkKey(String scope, String key) {
    refuseHalfCharacters("The key", key);
    if (tooLong(scope.length() + 1 + key.length(), scope + "#" + key, MAX_PARTITION_BYTES)) {
      throw new StateStoreException(
          Reason.INVALID_REQUEST,
          "The key '"
              + shortened(key)
              + "' of "
              + scope
              + " is too long for a state table (DynamoDB's partition key holds 2,048 bytes with"
              + " the operator's scope): key by something shorter, such as a hash of it");
    }
  }

  /** Refuses a state item of {@code key} in {@code scope} holding {@code bytes} of state. */
  public static void checkState(String scope, String key, int bytes) {
    checkKey(scope, key);
    if (bytes > MAX_VALUE_BYTES) {
      throw new StateStoreException(
          Reason.INVALID_REQUEST,
          "The state of key '"
              + shortened(key)
              + "' in "
              + scope
              + " is "
              + bytes
              + " bytes with its previous version, over DynamoDB's 400 KB item limit:"
              + " keep less state per key (for example aggregate instead of buffering a window)");
    }
  }

  /** Refuses item {@code key} of {@code collection} holding {@code bytes}. */
  public static void checkCollectionItem(String collection, String key, int bytes) {
    refuseHalfCharacters("The collection", collection);
    refuseHalfCharacters("The item", key);
    if (tooLong(collection.length(), collection, MAX_PARTITION_BYTES)
        || tooLong(key.length(), key, MAX_SORT_BYTES)) {
      throw new StateStoreException(
          Reason.INVALID_REQUEST,
          "Item '"
              + shortened(key)
              + "' of "
              + shortened(collection)
              + " has a key too long for a state table (DynamoDB's keys hold 2,048 bytes for the"
              + " collection and 1,024 for the item)");
    }
    if (bytes > MAX_VALUE_BYTES) {
      throw new StateStoreException(
          Reason.INVALID_REQUEST,
          "Item '"
              + shortened(key)
              + "' of "
              + collection
              + " is "
              + bytes
              + " bytes, over DynamoDB's 400 KB item limit: write it in smaller parts");
    }
  }

  /** Whether {@code text}, of {@code chars} characters, is over {@code most} UTF-8 bytes. */
  private static boolean tooLong(int chars, String text, int most) {
    // A character is at most three UTF-8 bytes (a surrogate pair, two characters, is four).
    return chars * 3L > most && text.getBytes(StandardCharsets.UTF_8).length > most;
  }

  private static String shortened(String text) {
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }
}
