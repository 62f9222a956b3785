package dev.statekit.runtime.store;

/**
 * An address's state would not fit in one stored item. Nothing was written. The runtime refuses the
 * message that made it grow past the limit ({@link Reason#INVALID_REQUEST}).
 */
public final class StateTooLargeException extends StoreException {
  private static final long serialVersionUID = 1L;

  private final long sizeBytes;
  private final long limitBytes;

  /** The state would take {@code sizeBytes} where at most {@code limitBytes} fit. */
  public StateTooLargeException(String address, long sizeBytes, long limitBytes) {
    super(
        Reason.INVALID_REQUEST,
        "The state of "
            + address
            + " would take "
            + sizeBytes
            + " bytes, more than the "
            + limitBytes
            + " bytes one item can hold (values, pending timers and undelivered messages count);"
            + " keep large data elsewhere (e.g. S3) and store a reference, or split it over"
            + " several addresses");
    this.sizeBytes = sizeBytes;
    this.limitBytes = limitBytes;
  }

  /** The size the state would have had. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** The most a state may take. */
  public long limitBytes() {
    return limitBytes;
  }
}
