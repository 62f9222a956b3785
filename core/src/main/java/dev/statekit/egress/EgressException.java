package dev.statekit.egress;

/** A sink could not deliver records; the runtime delivers them again later. */
public final class EgressException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure that says which sink and why. */
  public EgressException(String message, Throwable cause) {
    super(message, cause);
  }
}
