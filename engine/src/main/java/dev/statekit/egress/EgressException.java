package dev.statekit.egress;

import dev.statekit.StateKitException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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
  private final Set<String> deliveredRecordIds;

  /** A failure that passes (the sink kept refusing for now): the runtime delivers again later. */
  public EgressException(String message, Throwable cause) {
    this(Reason.UNAVAILABLE, message, cause);
  }

  /** A failure of {@code reason} that says which sink and why. */
  public EgressException(Reason reason, String message, Throwable cause) {
    this(reason, message, cause, null);
  }

  private EgressException(Reason reason, String message, Throwable cause, String refusedRecordId) {
    this(reason, message, cause, refusedRecordId, Set.of());
  }

  private EgressException(
      Reason reason,
      String message,
      Throwable cause,
      String refusedRecordId,
      Set<String> deliveredRecordIds) {
    super(reason, message, cause);
    this.refusedRecordId = refusedRecordId;
    this.deliveredRecordIds = Set.copyOf(deliveredRecordIds);
  }

  /**
   * This failure, with the records of the call that the sink knows it delivered all the same (the
   * service took them beside those it refused): a caller delivers only the others again.
   */
  public EgressException delivered(Collection<String> recordIds) {
    Set<String> delivered = new HashSet<>(deliveredRecordIds);
    delivered.addAll(recordIds);
    return new EgressException(reason(), getMessage(), getCause(), refusedRecordId, delivered);
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

  /**
   * The records of the failed call that the sink knows it delivered; empty when it knows of none
   * (every record of the call is then to be delivered again).
   */
  public Set<String> deliveredRecordIds() {
    return deliveredRecordIds;
  }
}
