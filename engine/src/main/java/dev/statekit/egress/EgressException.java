package dev.statekit.egress;

import dev.statekit.StateKitException;
import java.util.Objects;
import java.util.Optional;

/**
 * A sink could not deliver records. {@link #reason()} says whether the runtime's later delivery can
 * succeed ({@link Reason#UNAVAILABLE}) or the records themselves are refused ({@link
 * Reason#INVALID_REQUEST}: too large, no destination); the message says which sink and why. When
 * the sink refuses one record for what it holds, whatever the service's state and the sink's
 * configuration (its size), {@link #refusedRecordId()} names it: a caller may set that record aside
 * and deliver the others.
 */
public final class EgressException extends StateKitException {
  private static final long serialVersionUID = 1L;

  private final String refusedRecordId;

  /** A failure that passes (the sink kept refusing for now): the runtime delivers again later. */
  public EgressException(String message, Throwable cause) {
    this(Reason.UNAVAILABLE, message, cause);
  }

  /** A failure of {@code reason} that says which sink and why. */
  public EgressException(Reason reason, String message, Throwable cause) {
    this(reason, message, cause, null);
  }

  private EgressException(Reason reason, String message, Throwable cause, String refusedRecordId) {
    super(reason, message, cause);
    this.refusedRecordId = refusedRecordId;
  }

  /**
   * The sink refuses the record {@code recordId} for what it holds: no delivery of it can succeed
   * ({@link Reason#INVALID_REQUEST}).
   *
   * @param message what is wrong with the record and what to do, e.g. send large data elsewhere
   */
  public static EgressException refusing(String recordId, String message) {
    return refusing(recordId, message, null);
  }

  /** Like {@link #refusing(String, String)}, caused by {@code cause}. */
  public static EgressException refusing(String recordId, String message, Throwable cause) {
    return new EgressException(
        Reason.INVALID_REQUEST, message, cause, Objects.requireNonNull(recordId, "recordId"));
  }

  /**
   * The record the sink refuses for what it holds, if the failure is that record's alone; empty for
   * a failure of the sink or the service (unreachable, no permission, a missing queue).
   */
  public Optional<String> refusedRecordId() {
    return Optional.ofNullable(refusedRecordId);
  }
}
