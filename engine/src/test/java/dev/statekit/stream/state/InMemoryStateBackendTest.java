package dev.statekit.stream.state;

class InMemoryStateBackendTest extends StateBackendContract {
  private final InMemoryStateTable table = new InMemoryStateTable();

  @Override
  StateTable table() {
    return table;
  }
}
