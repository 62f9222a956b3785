package dev.statekit.runtime.internal;

/**
 * An invocation left for a later commit of its batch: the ones before it filled what one commit of
 * its address holds (its item, outbox and kept replies included, or its timer changes). Nothing of
 * it failed, so the batch runs it in another round instead of sending it back to its queue.
 */
final class NoRoomInCommit extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  NoRoomInCommit(String address) {
    super(
        "Not run in this commit: the messages before it to "
            + address
            + " filled what one commit holds");
  }
}
