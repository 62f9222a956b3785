package dev.statekit.runtime;

import dev.statekit.runtime.store.FunctionStore;

/** Where a runtime test's state and queues live. */
interface Servers {
  FunctionStore store();

  /** A fresh FIFO queue. */
  QueueSource newQueue(String name);

  /**
   * A fresh FIFO queue whose redrive policy moves a message to {@code deadLetters} once it was
   * received {@code maxReceiveCount} times.
   */
  QueueSource newQueue(String name, QueueSource deadLetters, int maxReceiveCount);

  /** A fresh standard queue (per-message delays, at-least-once, no groups). */
  QueueSource newStandardQueue(String name);

  /**
   * Lets {@code time} pass for the servers: real servers sleep it (their queues' delays run on real
   * time); in memory nothing, the test's clock moving is enough.
   */
  void sleep(java.time.Duration time);

  /** Deletes an address's item, as DynamoDB's TTL does once its time has come. */
  void expire(dev.statekit.function.Address address);

  /** Lets received messages that were not deleted come back. */
  void waitForVisibility();
}
