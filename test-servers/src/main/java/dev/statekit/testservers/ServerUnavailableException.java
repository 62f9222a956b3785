package dev.statekit.testservers;

/** A server the tests need could not be installed or started; the message says what to do. */
public final class ServerUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ServerUnavailableException(String message) {
    super(message);
  }

  ServerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
