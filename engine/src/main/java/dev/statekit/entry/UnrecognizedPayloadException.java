package dev.statekit.entry;

/**
 * The payload is none of the shapes the entry point accepts; the message names what arrived and
 * every accepted shape.
 */
public final class UnrecognizedPayloadException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  UnrecognizedPayloadException(String message) {
    super(message);
  }

  UnrecognizedPayloadException(String message, Throwable cause) {
    super(message, cause);
  }
}
