package dev.statekit.stream.state;

class InMemoryCheckpointStoreTest extends CheckpointStoreContract {
  private final CheckpointStore store = CheckpointStore.inMemory();

  @Override
  CheckpointStore store() {
    return store;
  }
}
