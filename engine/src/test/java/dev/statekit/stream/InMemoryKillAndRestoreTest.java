package dev.statekit.stream;

import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateTable;

class InMemoryKillAndRestoreTest extends KillAndRestoreContract {
  @Override
  StateTable table() {
    return new InMemoryStateTable();
  }

  @Override
  CheckpointStore checkpointStore() {
    return CheckpointStore.inMemory();
  }

  @Override
  int maxCachedKeys() {
    return Integer.MAX_VALUE;
  }
}
