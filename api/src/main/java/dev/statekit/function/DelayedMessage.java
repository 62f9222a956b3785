package dev.statekit.function;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** A message sent after a delay, optionally with a token that can cancel it until delivered. */
public final class DelayedMessage {
  private final Duration delay;
  private final Message message;
  private final String cancellationToken;

  private DelayedMessage(Duration delay, Message message, String cancellationToken) {
    this.delay = delay;
    this.message = message;
    this.cancellationToken = cancellationToken;
  }

  /**
   * A delayed message.
   *
   * @param cancellationToken the token, or {@code null} for a message that can't be cancelled
   * @throws IllegalArgumentException if the delay is negative or the token is empty
   */
  public static DelayedMessage of(Duration delay, Message message, String cancellationToken) {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(message, "message");
    if (delay.isNegative()) {
      throw new IllegalArgumentException(
          "A message can't be sent " + delay + " from now: the delay must be zero or more");
    }
    if (cancellationToken != null) {
      requireToken(cancellationToken);
    }
    return new DelayedMessage(delay, message, cancellationToken);
  }

  /**
   * Checks a cancellation token.
   *
   * @throws IllegalArgumentException if it is empty
   */
  public static String requireToken(String cancellationToken) {
    Objects.requireNonNull(cancellationToken, "cancellationToken");
    if (cancellationToken.isEmpty()) {
      throw new IllegalArgumentException(
          "A cancellation token must not be empty; use sendAfter(delay, message) for a delayed"
              + " message that is never cancelled");
    }
    return cancellationToken;
  }

  /** How long after the invocation the message is delivered (millisecond precision on the wire). */
  public Duration delay() {
    return delay;
  }

  /** The message. */
  public Message message() {
    return message;
  }

  /** The token that cancels it, if any. */
  public Optional<String> cancellationToken() {
    return Optional.ofNullable(cancellationToken);
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof DelayedMessage)) {
      return false;
    }
    DelayedMessage that = (DelayedMessage) other;
    return delay.equals(that.delay)
        && message.equals(that.message)
        && Objects.equals(cancellationToken, that.cancellationToken);
  }

  @Override
  public int hashCode() {
    return Objects.hash(delay, message, cancellationToken);
  }

  @Override
  public String toString() {
    return message
        + " after "
        + delay
        + (cancellationToken == null ? "" : " (token " + cancellationToken + ")");
  }
}
