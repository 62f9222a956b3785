package dev.statekit.runtime;

import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueMessage;
import java.util.List;
import java.util.Map;

/** A queue as Lambda's event source mapping sees it: receive a batch, delete what succeeded. */
interface QueueSource {
  /** Where the runtime sends to this queue. */
  MessageBus bus();

  /** Up to {@code max} messages, each with its receipt handle. */
  List<Received> receive(int max);

  /** Deletes a received message; false if the receipt is stale or the message gone. */
  boolean delete(String receiptHandle);

  /** Every message stored (visible or not), body with its attributes, for assertions. */
  List<Map.Entry<String, Map<String, String>>> peekAll();

  /** A received message. */
  record Received(String receiptHandle, QueueMessage message) {}
}
