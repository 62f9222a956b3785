package dev.statekit.invocation;

import dev.statekit.function.DelayedMessage;

/**
 * One entry of an invocation's delayed effects, in the order the function made them: a delayed
 * message, or the cancellation of a token. Order matters: cancelling a token then reusing it is not
 * the same as the reverse. Not for users.
 */
public final class DelayedAction {
  private final DelayedMessage message;
  private final String cancelledToken;

  private DelayedAction(DelayedMessage message, String cancelledToken) {
    this.message = message;
    this.cancelledToken = cancelledToken;
  }

  static DelayedAction send(DelayedMessage message) {
    return new DelayedAction(message, null);
  }

  static DelayedAction cancel(String token) {
    return new DelayedAction(null, token);
  }

  /** Whether this cancels a token rather than sending a message. */
  public boolean isCancellation() {
    return cancelledToken != null;
  }

  /** The delayed message; {@code null} for a cancellation. */
  public DelayedMessage message() {
    return message;
  }

  /** The cancelled token; {@code null} for a delayed message. */
  public String cancelledToken() {
    return cancelledToken;
  }

  @Override
  public String toString() {
    return isCancellation() ? "cancel " + cancelledToken : "send " + message;
  }
}
