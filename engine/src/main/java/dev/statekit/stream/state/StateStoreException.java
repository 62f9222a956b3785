package dev.statekit.stream.state;

import dev.statekit.StateKitException;

/**
 * A state table, batch store or checkpoint store failed. {@link #reason()} says what to do about
 * it: {@link Reason#UNAVAILABLE} (throttled, a server error, the network: try later), {@link
 * Reason#CONFLICT} (another writer won a race, such as two runs completing a checkpoint: read again
 * and retry) or {@link Reason#INVALID_REQUEST} (a missing table, a corrupt manifest, state past
 * DynamoDB's item limit: the message says what to fix).
 */
public final class StateStoreException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** A failure of {@code reason} with its cause. */
  public StateStoreException(Reason reason, String message, Throwable cause) {
    super(reason, message, cause);
  }

  /** A failure of {@code reason} without a cause. */
  public StateStoreException(Reason reason, String message) {
    super(reason, message);
  }
}
