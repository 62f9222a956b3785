package dev.statekit.runtime.store;

/**
 * A commit was refused because what it was computed from changed meanwhile: another invocation
 * committed the address, or a timer it consumes was consumed or cancelled. Nothing was written;
 * reload and compute the commit again ({@link Reason#CONFLICT}).
 */
public final class CommitConflictException extends StoreException {
  private static final long serialVersionUID = 1L;

  /** A conflict, with what conflicted. */
  public CommitConflictException(String message, Throwable cause) {
    super(Reason.CONFLICT, message, cause);
  }

  /** A conflict, with what conflicted. */
  public CommitConflictException(String message) {
    super(Reason.CONFLICT, message);
  }
}
