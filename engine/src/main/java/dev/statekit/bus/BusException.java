package dev.statekit.bus;

import dev.statekit.StateKitException;
import java.util.Set;

/**
 * Some messages could not be sent. Those not named in {@link #failedIndices()} were sent. {@link
 * #reason()} says whether a retry can help ({@link Reason#UNAVAILABLE}: the queue kept refusing for
 * a passing reason) or not ({@link Reason#INVALID_REQUEST}: the queue refused the messages
 * themselves); the messages' deduplication ids make a retry safe.
 */
public final class BusException extends StateKitException {
  private static final long serialVersionUID = 1L;

  private final Set<Integer> failedIndices;

  /** The messages at {@code failedIndices} (0-based, in the list given) were not sent. */
  public BusException(Reason reason, String message, Set<Integer> failedIndices, Throwable cause) {
    super(reason, message, cause);
    this.failedIndices = Set.copyOf(failedIndices);
  }

  /** The positions of the messages that were not sent. */
  public Set<Integer> failedIndices() {
    return failedIndices;
  }
}
