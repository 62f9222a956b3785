package dev.statekit.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * What became of one request-reply call ({@link FunctionRuntime#call}): applied, with the reply the
 * function sent (an egress record to {@code statekit/reply}) or none; or why not, and whether
 * calling again with the same idempotency key may succeed.
 *
 * @param status what happened
 * @param repeat whether an earlier call with the same key applied it: the reply is the one that
 *     application made, nothing ran again
 * @param replyType the reply's type name, {@code null} when there is no reply
 * @param replyValue the reply's bytes, {@code null} when there is no reply
 * @param error why it was not applied, or, for an applied call without a reply, why there is none
 */
public record CallResult(
    Status status, boolean repeat, String replyType, byte[] replyValue, String error) {
  /** What happened to a call. */
  public enum Status {
    /** Applied (now, or before under the same key): state committed, effects sent. */
    APPLIED,
    /** The function threw: nothing was applied; the error is the function's. */
    FAILED,
    /**
     * Other commits of the address kept winning until the call's deadline (or the runtime's
     * conflict retries ran out): nothing was applied; call again with the same key.
     */
    BUSY,
    /**
     * The store or the queue did not answer, or the address's earlier effects are still being
     * delivered: the call may or may not have been applied; call again with the same key, which
     * tells.
     */
    UNAVAILABLE,
    /** Refused for good (unknown function, a reply or state too large, ...): don't repeat it. */
    REJECTED
  }

  /** Checks the parts. */
  public CallResult {
    Objects.requireNonNull(status, "status");
    if ((replyType == null) != (replyValue == null)) {
      throw new IllegalArgumentException("A reply has both a type name and a value, or neither");
    }
  }

  /** Whether the function replied (only an applied call can have a reply). */
  public boolean replied() {
    return replyType != null;
  }

  /** Whether calling again with the same idempotency key may succeed. */
  public boolean retryable() {
    return status == Status.BUSY || status == Status.UNAVAILABLE || status == Status.FAILED;
  }

  /** The error, or for an applied call without a reply, why there is none. */
  public Optional<String> errorMessage() {
    return Optional.ofNullable(error);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CallResult that
        && status == that.status
        && repeat == that.repeat
        && Objects.equals(replyType, that.replyType)
        && java.util.Arrays.equals(replyValue, that.replyValue)
        && Objects.equals(error, that.error);
  }

  @Override
  public int hashCode() {
    return Objects.hash(status, repeat, replyType, java.util.Arrays.hashCode(replyValue), error);
  }

  @Override
  public String toString() {
    return "CallResult["
        + status
        + (repeat ? ", repeat" : "")
        + (replied() ? ", reply " + replyType + " (" + replyValue.length + " bytes)" : "")
        + (error == null ? "" : ", " + error)
        + "]";
  }
}
