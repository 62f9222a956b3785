package dev.statekit;

import java.util.Objects;

/**
 * The base of every failure StateKit reports (the function store, the message bus, egress sinks,
 * refused envelopes, events and requests, functions that failed, pipelines that failed): one {@link
 * Reason} says what the caller can do about it, whichever part failed. Catch this type to handle
 * them all:
 *
 * <pre>{@code
 * try {
 *   sink.deliver(records);
 * } catch (StateKitException e) {
 *   switch (e.reason()) {
 *     case UNAVAILABLE -> retryLater();        // throttled, a server error, the network
 *     case CONFLICT -> reloadAndRetry();       // someone else changed it first
 *     case INVALID_REQUEST -> fixTheInput(e);  // retrying the same request will not help
 *     case FAILED -> readTheCause(e);          // application code threw
 *   }
 * }
 * }</pre>
 *
 * Adapters translate their vendor's exceptions (the AWS SDK's) into subclasses of this one, so user
 * code never needs a vendor type to tell the cases apart.
 */
public abstract class StateKitException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What a caller can do about a failure. */
  public enum Reason {
    /**
     * The backend refused for a reason that passes (throttling, a server error, the network) and
     * kept refusing after the adapter's own retries. Nothing is lost: try again later.
     */
    UNAVAILABLE,
    /**
     * What the request was computed from changed meanwhile (another writer won). Nothing was
     * written: read again, compute again, try again.
     */
    CONFLICT,
    /**
     * The request itself is wrong (bad input, too large, a missing table or queue, no permission):
     * the same request will fail again. The message says what to fix.
     */
    INVALID_REQUEST,
    /**
     * Code the application registered (a stateful function, a pipeline's function) threw; the cause
     * is its exception. Its effects were dropped: whether running it again helps depends on that
     * code. The runtime tries a message again up to its attempts, then dead-letters it.
     */
    FAILED
  }

  private final Reason reason;

  /** A failure of {@code reason} with a message that says what went wrong and what to do. */
  protected StateKitException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** A failure of {@code reason} with a message that says what went wrong and what to do. */
  protected StateKitException(Reason reason, String message) {
    this(reason, message, null);
  }

  /** What the caller can do about it. */
  public Reason reason() {
    return reason;
  }

  /**
   * Whether the same work may succeed if tried again later ({@link Reason#UNAVAILABLE}), after
   * reading again ({@link Reason#CONFLICT}), or, for application code that threw ({@link
   * Reason#FAILED}), if what made it throw has passed.
   */
  public boolean isRetryable() {
    return reason != Reason.INVALID_REQUEST;
  }
}
