package dev.statekit.stream.lambda;

/** Idle shards on the in-memory store. */
class IdleSplitsTest extends IdleSplitsContract {
  private final PipelineParts parts = PipelineParts.inMemory();

  @Override
  PipelineParts parts() {
    return parts;
  }
}
