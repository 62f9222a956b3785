package dev.statekit.runtime.internal;

/**
 * Idempotency keys that name where a dead-lettered message came from, so that sending the dead
 * letter to the ingress queue again applies it only if the original never was: {@code
 * statekit:seq:<group>:<sequence>} for a queue message (its address's mark of that group says), and
 * {@code statekit:bundle:<sender>:<version>:<part>:<index>} for a message of another function (its
 * mark of that sender says). Keys starting {@code statekit:} are the runtime's own.
 */
final class OriginIds {
  private static final String SEQUENCE = "statekit:seq:";
  private static final String BUNDLE = "statekit:bundle:";

  private OriginIds() {}

  /** A queue message's origin. */
  record Queued(String groupId, String sequence) {}

  /** A bundled message's origin. */
  record Bundled(String senderHash, long version, int part, int index) {}

  static String queued(String groupId, String sequence) {
    return SEQUENCE + groupId + ":" + sequence;
  }

  static String bundled(String senderHash, long version, int part, int index) {
    return BUNDLE + senderHash + ":" + version + ":" + part + ":" + index;
  }

  /** The origin a key names, or {@code null} if it names none. */
  static Queued queuedOrNull(String key) {
    if (key == null || !key.startsWith(SEQUENCE)) {
      return null;
    }
    int colon = key.lastIndexOf(':');
    String sequence = key.substring(colon + 1);
    String group = key.substring(SEQUENCE.length(), Math.max(SEQUENCE.length(), colon));
    if (group.isEmpty() || sequence.isEmpty() || !sequence.chars().allMatch(Character::isDigit)) {
      return null;
    }
    return new Queued(group, sequence);
  }

  /** The origin a key names, or {@code null} if it names none. */
  static Bundled bundledOrNull(String key) {
    if (key == null || !key.startsWith(BUNDLE)) {
      return null;
    }
    String[] parts = key.substring(BUNDLE.length()).split(":", -1);
    if (parts.length != 4 || parts[0].isEmpty()) {
      return null;
    }
    try {
      return new Bundled(
          parts[0],
          Long.parseLong(parts[1]),
          Integer.parseInt(parts[2]),
          Integer.parseInt(parts[3]));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
