package dev.statekit.entry;

/**
 * The payload is larger than the entry point takes ({@link EntryPointBuilder#maxPayloadBytes});
 * nothing of it was read.
 */
public final class PayloadTooLargeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  PayloadTooLargeException(String message) {
    super(message);
  }
}
