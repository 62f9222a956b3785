package dev.statekit.stream.lambda;

/** The fault scenario on the in-memory store, results in a map written by id like a table. */
class WindowedFaultsTest extends WindowedFaultsContract {
  private final PipelineParts parts = PipelineParts.inMemory();

  @Override
  PipelineParts parts() {
    return parts;
  }

  @Override
  int recordsPerShard() {
    return 3000;
  }
}
