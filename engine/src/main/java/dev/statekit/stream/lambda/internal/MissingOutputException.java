package dev.statekit.stream.lambda.internal;

/**
 * A kept output names an output this deployment lacks (its egress was renamed or removed). A queue
 * message whose kept outputs cannot go out goes back alone, with this message; on a shard the batch
 * fails, since the records after it must wait for it.
 */
final class MissingOutputException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  MissingOutputException(String message) {
    super(message);
  }
}
