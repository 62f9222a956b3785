package dev.statekit.runtime.internal;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What of one outbox did not go out, and the first reason: its bundles (by target and part, every
 * later part of a target included, since parts go out in order), its egress records and its dead
 * letters (by index).
 */
final class Undelivered {
  private String reason;
  final Set<String> bundles = new LinkedHashSet<>();
  final Set<Integer> egress = new LinkedHashSet<>();
  final Set<Integer> deadLetters = new LinkedHashSet<>();

  static String bundleKey(String targetType, String targetId, int part) {
    return targetType + "/" + targetId + "#" + part;
  }

  synchronized void because(String why) {
    if (reason == null) {
      reason = why;
    }
  }

  synchronized String reason() {
    return reason;
  }

  synchronized void bundle(String key, String why) {
    bundles.add(key);
    because(why);
  }

  synchronized void egress(int index, String why) {
    egress.add(index);
    because(why);
  }

  synchronized void deadLetter(int index, String why) {
    deadLetters.add(index);
    because(why);
  }
}
