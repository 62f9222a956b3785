package dev.statekit.stream.state;

/**
 * A state table or checkpoint store failed. {@link #retryable()} tells whether trying again later
 * may succeed (throttling, a timeout) or the request itself is wrong.
 */
public final class StateStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean retryable;

  /** An error with its cause. */
  public StateStoreException(String message, boolean retryable, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
  }

  /** An error without a cause. */
  public StateStoreException(String message, boolean retryable) {
    super(message);
    this.retryable = retryable;
  }

  /** True if the same request may succeed later. */
  public boolean retryable() {
    return retryable;
  }
}
