package dev.statekit.entry;

import dev.statekit.StateKitException;

/**
 * The payload is none of the shapes the entry point accepts; the message names what arrived and
 * every accepted shape.
 */
public final class UnrecognizedPayloadException extends StateKitException {
  private static final long serialVersionUID = 1L;

  UnrecognizedPayloadException(String message) {
    super(Reason.INVALID_REQUEST, message);
  }

  UnrecognizedPayloadException(String message, Throwable cause) {
    super(Reason.INVALID_REQUEST, message, cause);
  }
}
