package dev.statekit.runtime;

class QueueBatchTest extends QueueBatchContract {
  private final Servers servers = new MemoryServers(clock);

  @Override
  Servers servers() {
    return servers;
  }
}
