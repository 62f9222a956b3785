package dev.statekit.stream;

import dev.statekit.StateKitException;

/**
 * A pipeline run stopped on an error. Its state is as of the last complete checkpoint: run the
 * pipeline again with the same options to restore it and replay the source from there.
 */
public final class PipelineFailedException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** A failure with its cause. */
  public PipelineFailedException(String message, Throwable cause) {
    super(Reason.FAILED, message, cause);
  }
}
