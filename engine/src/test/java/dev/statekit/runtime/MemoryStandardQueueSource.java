package dev.statekit.runtime;

import dev.statekit.bus.InMemoryStandardQueue;
import dev.statekit.bus.MessageBus;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A {@link QueueSource} over an {@link InMemoryStandardQueue}. */
final class MemoryStandardQueueSource implements QueueSource {
  private final InMemoryStandardQueue queue;

  MemoryStandardQueueSource(Clock clock, Duration visibilityTimeout) {
    this.queue = new InMemoryStandardQueue(clock, visibilityTimeout);
  }

  @Override
  public MessageBus bus() {
    return queue;
  }

  @Override
  public List<Received> receive(int max) {
    return queue.receive(max).stream()
        .map(r -> new Received(r.receiptHandle(), r.message()))
        .toList();
  }

  @Override
  public boolean delete(String receiptHandle) {
    return queue.delete(receiptHandle);
  }

  @Override
  public List<Map.Entry<String, Map<String, String>>> peekAll() {
    return queue.peekAll().stream().map(m -> Map.entry(m.body(), m.attributes())).toList();
  }
}
