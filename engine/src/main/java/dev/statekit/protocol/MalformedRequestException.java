package dev.statekit.protocol;

import dev.statekit.StateKitException;

/**
 * The bytes given to {@link RequestReplyHandler#invoke} are not a usable StateFun {@code
 * ToFunction}: not protobuf, truncated, without an invocation batch, or with an incomplete address
 * or argument. Nothing was invoked.
 */
public final class MalformedRequestException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** With a message that says what was wrong and what to send instead. */
  public MalformedRequestException(String message) {
    super(Reason.INVALID_REQUEST, message);
  }

  /** With a message and the parser's exception. */
  public MalformedRequestException(String message, Throwable cause) {
    super(Reason.INVALID_REQUEST, message, cause);
  }
}
