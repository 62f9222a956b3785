package dev.statekit.runtime;

import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.runtime.store.InMemoryFunctionStore;
import dev.statekit.testing.ManualClock;
import java.time.Duration;

/** The in-memory adapters; queue visibility runs on the test's clock. */
final class MemoryServers implements Servers {
  static final Duration VISIBILITY = Duration.ofSeconds(30);

  private final ManualClock clock;
  private final InMemoryFunctionStore store = new InMemoryFunctionStore();

  MemoryServers(ManualClock clock) {
    this.clock = clock;
  }

  @Override
  public FunctionStore store() {
    return store;
  }

  @Override
  public QueueSource newQueue(String name) {
    return new MemoryQueueSource(clock, VISIBILITY, null, 0);
  }

  @Override
  public QueueSource newQueue(String name, QueueSource deadLetters, int maxReceiveCount) {
    return new MemoryQueueSource(
        clock, VISIBILITY, ((MemoryQueueSource) deadLetters).queue(), maxReceiveCount);
  }

  @Override
  public QueueSource newStandardQueue(String name) {
    return new MemoryStandardQueueSource(clock, VISIBILITY);
  }

  @Override
  public void sleep(Duration time) {}

  @Override
  public void expire(dev.statekit.function.Address address) {
    store.expire(address);
  }

  @Override
  public void waitForVisibility() {
    clock.advance(VISIBILITY.plusSeconds(1));
  }
}
