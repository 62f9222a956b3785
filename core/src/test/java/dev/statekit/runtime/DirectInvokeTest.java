package dev.statekit.runtime;

class DirectInvokeTest extends DirectInvokeContract {
  private final Servers servers = new MemoryServers(clock);

  @Override
  Servers servers() {
    return servers;
  }
}
