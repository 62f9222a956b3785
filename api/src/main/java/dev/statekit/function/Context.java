package dev.statekit.function;

import java.time.Duration;
import java.util.Optional;

/** What a function sees of the invocation it runs in, and how it acts on the world. */
public interface Context {
  /** The address this function runs on. */
  Address self();

  /** The function that sent the message; empty when it came from an ingress. */
  Optional<Address> caller();

  /** The persisted values of {@link #self()}. */
  AddressScopedStorage storage();

  /** Sends a message to another function (or this one). */
  void send(Message message);

  /**
   * Sends a message after a delay.
   *
   * @throws IllegalArgumentException if the delay is negative
   */
  void sendAfter(Duration delay, Message message);

  /**
   * Sends a message after a delay, cancellable with {@link #cancelDelayedMessage} until delivered.
   * Only one pending message may hold a token at a time.
   *
   * @throws IllegalArgumentException if the delay is negative or the token is empty
   */
  void sendAfter(Duration delay, Message message, String cancellationToken);

  /**
   * Cancels the pending delayed message with this token; does nothing if none is pending.
   *
   * @throws IllegalArgumentException if the token is empty
   */
  void cancelDelayedMessage(String cancellationToken);

  /** Emits a record to an egress. */
  void send(EgressMessage message);
}
