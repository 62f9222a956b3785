package dev.statekit.runtime;

class ExpiryTest extends ExpiryContract {
  private final Servers servers = new MemoryServers(clock);

  @Override
  Servers servers() {
    return servers;
  }
}
