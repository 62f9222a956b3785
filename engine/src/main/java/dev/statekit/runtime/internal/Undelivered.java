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

  /**
   * The name of an outbox's egress record in {@link dev.statekit.runtime.store.OutboxTries#out}.
   */
  static String egressItem(int index) {
    return "e" + index;
  }

  /** The name of an outbox's dead letter in {@link dev.statekit.runtime.store.OutboxTries#out}. */
  static String deadLetterItem(int index) {
    return "d" + index;
  }

  /**
   * What of {@code pending} is out after a try that left {@code failed} undelivered: what earlier
   * tries delivered ({@code before}), and the egress records and dead letters this one did. Bundles
   * are not named: their receivers drop a bundle they applied, so one sent again costs nothing.
   */
  static Set<String> out(PendingOutbox pending, Undelivered failed, Set<String> before) {
    Set<String> out = new LinkedHashSet<>(before);
    for (int i = 0; i < pending.outbox().getEgressCount(); i++) {
      if (!failed.egress.contains(i)) {
        out.add(egressItem(i));
      }
    }
    for (int i = 0; i < pending.outbox().getDeadLettersCount(); i++) {
      if (!failed.deadLetters.contains(i)) {
        out.add(deadLetterItem(i));
      }
    }
    return out;
  }

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
