package dev.statekit.runtime;

import dev.statekit.runtime.store.FunctionStore;

/** Where a runtime test's state and queues live. */
interface Servers {
  FunctionStore store();

  /** A fresh FIFO queue. */
  QueueSource newQueue(String name);

  /** Lets received messages that were not deleted come back. */
  void waitForVisibility();
}
