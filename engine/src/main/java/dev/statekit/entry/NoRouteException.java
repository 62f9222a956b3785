package dev.statekit.entry;

import dev.statekit.StateKitException;

/**
 * The payload is of an accepted shape, but the application registered nothing for it (no functions
 * for a ToFunction, no consumer for that queue or stream); the message names what is registered.
 * Lambda retries the payload, so nothing is lost while the configuration is fixed.
 */
public final class NoRouteException extends StateKitException {
  private static final long serialVersionUID = 1L;

  NoRouteException(String message) {
    super(Reason.INVALID_REQUEST, message);
  }
}
