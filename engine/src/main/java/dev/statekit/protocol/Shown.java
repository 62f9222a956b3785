package dev.statekit.protocol;

/**
 * A name from a request as a refusal quotes it: whole up to 200 characters, else its start and its
 * length. A forged request can carry names of many megabytes, and the refusal goes into the
 * answer's body and the log.
 */
final class Shown {
  private static final int MOST = 200;

  private Shown() {}

  static String shown(String text) {
    if (text.length() <= MOST) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(MOST - 1)) ? MOST - 1 : MOST;
    return text.substring(0, end) + "... (" + text.length() + " characters)";
  }
}
