package dev.statekit.local;

import java.util.Map;

/** A dead letter as one console line: its body, then why it was dead-lettered. */
final class DeadLetterLine {
  private DeadLetterLine() {}

  static String of(String body, Map<String, String> attributes) {
    String error = attributes.get("statekit.error");
    return body
        + (error == null
            ? " (moved by the queue's redrive, without the runtime's error)"
            : " (" + error + ", after " + attributes.get("statekit.attempts") + " attempts)");
  }
}
