package dev.statekit.stream.internal.threaded;

import java.util.Queue;

/**
 * Elements handed from one task to a worker of the next stage in one queue operation: records, and
 * markers ({@link Mark}) in stream order.
 *
 * <p>A chunk goes back to the exchange that filled it once its worker has processed all of it
 * ({@link #recycle}), so a steady stream allocates no chunks: at ten million records a second, new
 * chunks were a twentieth of what a keyed job allocated, and each came zeroed and cold. The queue a
 * chunk travels through orders the worker's reads before the producer's next writes. A recycled
 * chunk keeps references beyond its new size until they are overwritten, at most a chunk per slot
 * of the queues it feeds.
 *
 * <p>A record a source handed out as its parts ({@link dev.statekit.stream.internal.RecordParts})
 * travels as them: its value in {@link #elements}, its offset and timestamp in the primitive
 * arrays, its split once per chunk; the worker makes the record. The source thread then makes no
 * {@code Record} per record, and the worker reads no object the other core wrote but the value.
 */
final class Chunk {
  final int channel;
  final Object[] elements;

  /** The key of each record element (the exchange computed it; records get it when needed). */
  final Object[] keys;

  /** Whether each element is a record's value with its parts (else a record or a marker). */
  final boolean[] parts;

  /** The offset and timestamp of each element that is a record's parts. */
  final long[] offsets;

  final long[] timestamps;

  /** The split of every element that is a record's parts; null while there is none. */
  String split;

  /** Where the chunk goes once processed: its exchange's free chunks, or null. */
  private final Queue<Chunk> home;

  int size;

  /** The next element to process (a chunk may be parked half done during barrier alignment). */
  int position;

  Chunk(int channel, int capacity, Queue<Chunk> home) {
    this.channel = channel;
    this.elements = new Object[capacity];
    this.keys = new Object[capacity];
    this.parts = new boolean[capacity];
    this.offsets = new long[capacity];
    this.timestamps = new long[capacity];
    this.home = home;
  }

  boolean isFull() {
    return size == elements.length;
  }

  /** Hands the chunk back to the exchange that filled it; the caller no longer touches it. */
  void recycle() {
    if (home != null) {
      size = 0;
      position = 0;
      split = null;
      home.offer(this);
    }
  }
}
