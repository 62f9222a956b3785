package dev.statekit.stream;

import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateTable;

/**
 * Kills and restores with chunks of two records in queues of one chunk, so that nearly every chunk
 * is a recycled one and barriers park chunks half done, and with three keys in memory per store, so
 * that keys are evicted from the key map and read back through at every checkpoint.
 */
class TinyChunksKillAndRestoreTest extends KillAndRestoreContract {
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
    return 3;
  }

  @Override
  RunOptions.Builder handOff(RunOptions.Builder options) {
    return options.handOff(2, 1);
  }
}
