package dev.statekit.runtime.bus;

import java.util.Set;

/**
 * Some messages could not be sent. Those not named in {@link #failedIndices()} were sent. Whether
 * to retry later is the caller's choice; the messages' deduplication ids make a retry safe.
 */
public final class BusException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Set<Integer> failedIndices;

  /** The messages at {@code failedIndices} (0-based, in the list given) were not sent. */
  public BusException(String message, Set<Integer> failedIndices, Throwable cause) {
    super(message, cause);
    this.failedIndices = Set.copyOf(failedIndices);
  }

  /** The positions of the messages that were not sent. */
  public Set<Integer> failedIndices() {
    return failedIndices;
  }
}
