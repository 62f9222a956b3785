package dev.statekit.stream.internal.threaded;

import dev.statekit.stream.Record;
import dev.statekit.stream.internal.KeyBySpec;
import dev.statekit.stream.internal.KeyCheck;
import dev.statekit.stream.internal.Output;
import dev.statekit.stream.internal.Routing;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * The end of a stage that feeds a keyed stage: sets each record's key, routes it by the key's
 * partition and hands records over in chunks. Markers are broadcast to every partition after the
 * records before them. Putting into a full queue blocks: that is the backpressure. Chunks come back
 * once processed ({@link Chunk#recycle}) and are filled again.
 */
final class KeyedExchange implements Output {
  private final Function<Object, Object> selector;
  private final KeyCheck keys;
  private final Routing routing;
  private final BlockingQueue<Chunk>[] queues;
  private final Chunk[] pending;
  private final int channel;
  private final int chunkSize;

  /** Chunks the workers processed, returned from their threads. */
  private final Queue<Chunk> free = new ConcurrentLinkedQueue<>();

  /**
   * @param readsKeysBack whether the keyed stage reads keys back from their serialized form (its
   *     windows' timers), which its keys must then survive
   */
  KeyedExchange(
      KeyBySpec keyBy,
      boolean readsKeysBack,
      Routing routing,
      BlockingQueue<Chunk>[] queues,
      int channel,
      int chunkSize) {
    this.selector = keyBy.selector();
    this.keys = new KeyCheck(keyBy, readsKeysBack);
    this.routing = routing;
    this.queues = queues;
    this.channel = channel;
    this.chunkSize = chunkSize;
    this.pending = new Chunk[queues.length];
  }

  @Override
  public void emit(Record<?> record) throws InterruptedException {
    Object key = selector.apply(record.value());
    if (!keys.accepts(key)) {
      throw keys.refusal(key, record);
    }
    add(routing.partition(key), record, key);
  }

  /**
   * A record handed out by its source as its parts: keyed and routed as {@link #emit} does, and
   * carried as its parts to the worker, which makes the record.
   */
  void emitParts(String split, long offset, Object value, long timestamp)
      throws InterruptedException {
    Object key = selector.apply(value);
    if (!keys.accepts(key)) {
      throw keys.refusal(key, Record.at(split, offset, null, value, timestamp));
    }
    int target = routing.partition(key);
    Chunk chunk = pending[target];
    if (chunk != null && chunk.split != null && !chunk.split.equals(split)) {
      // A chunk carries one split for its parts: records of another split start the next chunk.
      flush(target);
      chunk = null;
    }
    if (chunk == null) {
      chunk = open(target);
    }
    int i = chunk.size;
    chunk.split = split;
    chunk.parts[i] = true;
    chunk.offsets[i] = offset;
    chunk.timestamps[i] = timestamp;
    chunk.keys[i] = key;
    chunk.elements[i] = value;
    chunk.size = i + 1;
    if (chunk.isFull()) {
      pending[target] = null;
      queues[target].put(chunk);
    }
  }

  private void add(int target, Object element, Object key) throws InterruptedException {
    Chunk chunk = pending[target];
    if (chunk == null) {
      chunk = open(target);
    }
    chunk.parts[chunk.size] = false;
    chunk.keys[chunk.size] = key;
    chunk.elements[chunk.size++] = element;
    if (chunk.isFull()) {
      pending[target] = null;
      queues[target].put(chunk);
    }
  }

  /** A chunk to fill for {@code target}: a processed one back from its worker, or a new one. */
  private Chunk open(int target) {
    Chunk chunk = free.poll();
    if (chunk == null) {
      chunk = new Chunk(channel, chunkSize, free);
    }
    pending[target] = chunk;
    return chunk;
  }

  private void broadcast(Object mark) throws InterruptedException {
    for (int target = 0; target < queues.length; target++) {
      add(target, mark, null);
      flush(target);
    }
  }

  /** Hands over partly filled chunks, before the task waits for input. */
  void flush() throws InterruptedException {
    for (int target = 0; target < queues.length; target++) {
      flush(target);
    }
  }

  private void flush(int target) throws InterruptedException {
    Chunk chunk = pending[target];
    if (chunk != null) {
      pending[target] = null;
      queues[target].put(chunk);
    }
  }

  @Override
  public void watermark(long watermark) throws InterruptedException {
    broadcast(new Mark.Watermark(watermark));
  }

  @Override
  public void idle() throws InterruptedException {
    broadcast(Mark.IDLE);
  }

  @Override
  public void barrier(long checkpointId) throws InterruptedException {
    broadcast(new Mark.Barrier(checkpointId));
  }

  @Override
  public void end() throws InterruptedException {
    broadcast(Mark.END);
  }
}
