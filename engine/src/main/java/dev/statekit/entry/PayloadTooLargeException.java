package dev.statekit.entry;

import dev.statekit.StateKitException;

/**
 * The payload is larger than the entry point takes ({@link EntryPointBuilder#maxPayloadBytes});
 * nothing of it was read.
 */
public final class PayloadTooLargeException extends StateKitException {
  private static final long serialVersionUID = 1L;

  PayloadTooLargeException(String message) {
    super(Reason.INVALID_REQUEST, message);
  }
}
