package dev.statekit.runtime;

class DelayedMessagesTest extends DelayedMessagesContract {
  private final Servers servers = new MemoryServers(clock);

  @Override
  Servers servers() {
    return servers;
  }
}
