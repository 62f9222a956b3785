package dev.statekit.stream.lambda;

/** Copies and retries of a batch on the in-memory store. */
class RetriedBatchesTest extends RetriedBatchesContract {
  private final PipelineParts parts = PipelineParts.inMemory();

  @Override
  PipelineParts parts() {
    return parts;
  }
}
