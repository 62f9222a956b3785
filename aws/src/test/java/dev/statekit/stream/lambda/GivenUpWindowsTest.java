package dev.statekit.stream.lambda;

/** Batches given up on, on the in-memory store. */
class GivenUpWindowsTest extends GivenUpWindowsContract {
  private final PipelineParts parts = PipelineParts.inMemory();

  @Override
  PipelineParts parts() {
    return parts;
  }
}
