package dev.statekit.entry;

import dev.statekit.StateKitException;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.IncompatibleStateException;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.protocol.MalformedRequestException;

/**
 * What a Lambda handler throws in place of a failure. Lambda hands a thrown exception's type,
 * message and stack trace to whoever invoked the function, so this one carries only what the caller
 * may know: for a request that was refused, what was wrong with it (the refusal's own message); for
 * anything else, that it failed inside and an error id. The whole failure, with that id, goes to
 * the function's log. It has no stack trace and no cause.
 */
public final class InvocationError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(InvocationError.class);

  private InvocationError(String message) {
    super(message, null, false, false);
  }

  /** The error to throw for {@code failure}, which is logged first. */
  public static InvocationError of(Throwable failure) {
    String id = dev.statekit.telemetry.ErrorIds.next();
    String said = toCaller(failure, id);
    LOG.log(
        refused(failure)
            ? dev.statekit.telemetry.LogLevel.INFO
            : dev.statekit.telemetry.LogLevel.WARN,
        "[error " + id + "] The invocation failed: " + failure,
        failure);
    return new InvocationError(said);
  }

  private static String toCaller(Throwable failure, String id) {
    if (refused(failure)) {
      // The kit's own refusal, named so a caller can tell them apart; the type is no secret.
      return failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }
    if (failure instanceof FunctionInvocationException e) {
      return "The function "
          + e.address()
          + " failed on message "
          + (e.invocationIndex() + 1)
          + " of its batch; the function's log has the cause (error "
          + id
          + ")";
    }
    if (failure instanceof StateKitException e) {
      // Whichever part failed, its reason says what the caller can do; its text may hold a
      // function's own failure or a backend's details, so it stays in the log.
      return e.isRetryable()
          ? "The invocation failed for now and was not applied; retry it with the same"
              + " idempotency key (error "
              + id
              + ")"
          : "The invocation was rejected and repeating it will not help (its input, a state too"
              + " large, or a function that kept failing); the function's log says which (error "
              + id
              + ")";
    }
    return "The invocation failed inside the function; its log has the cause (error " + id + ")";
  }

  /** Whether the failure is a refusal of the request, whose message speaks of the request only. */
  private static boolean refused(Throwable failure) {
    return failure instanceof UnrecognizedPayloadException
        || failure instanceof MalformedEventException
        || failure instanceof PayloadTooLargeException
        || failure instanceof NoRouteException
        || failure instanceof MalformedRequestException
        || failure instanceof UnknownFunctionException
        || failure instanceof IncompatibleStateException
        || failure instanceof InvalidEnvelopeException;
  }
}
