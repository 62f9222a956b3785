package dev.statekit.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * What became of one direct invocation.
 *
 * @param status what happened
 * @param error why it failed or was rejected, {@code null} otherwise
 */
public record DirectResult(Status status, String error) {
  /** What happened to an invocation. */
  public enum Status {
    /** Applied now: its state changes are committed and its messages and records sent. */
    APPLIED,
    /** Applied before (same idempotency key): nothing happened again. */
    DUPLICATE,
    /** Failed for now (the function threw, or a passing error): retry it, with the same key. */
    FAILED,
    /** Refused for good (bad input, state too large, ...): retrying the same input won't help. */
    REJECTED
  }

  /** Checks the parts. */
  public DirectResult {
    Objects.requireNonNull(status, "status");
  }

  /** Whether the invocation's effects are in place (applied now or before). */
  public boolean succeeded() {
    return status == Status.APPLIED || status == Status.DUPLICATE;
  }

  /** The error, for a failed or rejected invocation. */
  public Optional<String> errorMessage() {
    return Optional.ofNullable(error);
  }
}
