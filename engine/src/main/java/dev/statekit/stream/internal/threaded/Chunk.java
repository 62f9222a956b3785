package dev.statekit.stream.internal.threaded;

/**
 * Elements handed from one task to a worker of the next stage in one queue operation: records, and
 * markers ({@link Mark}) in stream order.
 */
final class Chunk {
  final int channel;
  final Object[] elements;

  /** The key of each record element (the exchange computed it; records get it when needed). */
  final Object[] keys;

  int size;

  /** The next element to process (a chunk may be parked half done during barrier alignment). */
  int position;

  Chunk(int channel, int capacity) {
    this.channel = channel;
    this.elements = new Object[capacity];
    this.keys = new Object[capacity];
  }

  boolean isFull() {
    return size == elements.length;
  }
}
