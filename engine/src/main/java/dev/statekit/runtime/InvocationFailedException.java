package dev.statekit.runtime;

import dev.statekit.StateKitException;

/**
 * A direct invocation was not applied: it failed for now (retry it, with the same idempotency key)
 * ({@link Reason#UNAVAILABLE}) or was rejected for good ({@link Reason#INVALID_REQUEST}). The
 * message says why.
 */
public final class InvocationFailedException extends StateKitException {
  private static final long serialVersionUID = 1L;

  private final transient DirectResult result;

  /** For a result that did not succeed. */
  public InvocationFailedException(DirectResult result) {
    super(
        result.status() == DirectResult.Status.REJECTED
            ? Reason.INVALID_REQUEST
            : Reason.UNAVAILABLE,
        (result.status() == DirectResult.Status.REJECTED ? "Rejected: " : "Failed, retry it: ")
            + result.errorMessage().orElse("no reason given"));
    this.result = result;
  }

  /** The result. */
  public DirectResult result() {
    return result;
  }

  /** Whether retrying can help (the invocation failed for now rather than being rejected). */
  public boolean retryable() {
    return result.status() == DirectResult.Status.FAILED;
  }
}
