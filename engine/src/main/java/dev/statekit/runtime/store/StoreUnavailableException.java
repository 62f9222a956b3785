package dev.statekit.runtime.store;

/**
 * The store kept refusing for a reason that passes (throttling, a server error, the network) after
 * every retry ({@link Reason#UNAVAILABLE}). Nothing is lost: the caller retries later.
 */
public final class StoreUnavailableException extends StoreException {
  private static final long serialVersionUID = 1L;

  /** What was refused, and the last cause. */
  public StoreUnavailableException(String message, Throwable cause) {
    super(Reason.UNAVAILABLE, message, cause);
  }
}
