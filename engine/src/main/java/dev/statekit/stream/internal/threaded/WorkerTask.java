package dev.statekit.stream.internal.threaded;

import dev.statekit.stream.Record;
import dev.statekit.stream.internal.Operator;
import dev.statekit.stream.internal.TaskState;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs one worker of a keyed stage: takes chunks from its queue and pushes their elements down its
 * chain. With several upstream channels it aligns markers: its watermark is the least of the
 * channels', and a barrier passes only once every channel delivered it (a channel that delivered it
 * is held back meanwhile), so the snapshot falls between the same records everywhere.
 */
final class WorkerTask implements Runnable {
  private final BlockingQueue<Chunk> queue;
  private final int channels;
  private final Operator head;
  private final KeyedExchange exchange;
  private final TaskState state;
  private final CheckpointCoordinator coordinator;

  private final long[] watermarks;

  /** Channels that said they have no event time yet: left out of the least watermark. */
  private final boolean[] idle;

  /** Whether this worker told the next stage it is idle (all its channels are). */
  private boolean saidIdle;

  private final boolean[] ended;
  private final boolean[] blocked;
  private final ArrayDeque<Chunk>[] parked;
  private int endedCount;
  private int barriersSeen;
  private long watermark = Long.MIN_VALUE;
  private long lastCheckpoint;

  @SuppressWarnings("unchecked")
  WorkerTask(
      BlockingQueue<Chunk> queue,
      int channels,
      Operator head,
      KeyedExchange exchange,
      TaskState state,
      CheckpointCoordinator coordinator,
      long restoredWatermark) {
    this.queue = queue;
    this.channels = channels;
    this.head = head;
    this.exchange = exchange;
    this.state = state;
    this.coordinator = coordinator;
    this.watermarks = new long[channels];
    this.idle = new boolean[channels];
    java.util.Arrays.fill(watermarks, restoredWatermark);
    this.watermark = restoredWatermark;
    this.ended = new boolean[channels];
    this.blocked = new boolean[channels];
    this.parked = new ArrayDeque[channels];
    for (int i = 0; i < channels; i++) {
      parked[i] = new ArrayDeque<>();
    }
  }

  @Override
  public void run() {
    try {
      while (endedCount < channels) {
        Chunk chunk = next();
        if (chunk != null && process(chunk)) {
          chunk.recycle();
        }
      }
      head.end();
      if (exchange != null) {
        exchange.flush();
      }
      coordinator.awaitComplete(lastCheckpoint);
      state.notifyComplete(lastCheckpoint);
    } catch (Exception e) {
      throw Sneaky.propagate(e);
    }
  }

  private Chunk next() throws Exception {
    for (int c = 0; c < channels; c++) {
      if (!blocked[c] && !parked[c].isEmpty()) {
        return parked[c].poll();
      }
    }
    Chunk chunk = queue.poll();
    if (chunk == null) {
      // About to wait: hand over partial chunks so downstream isn't starved, apply completions.
      if (exchange != null) {
        exchange.flush();
      }
      state.notifyComplete(coordinator.completed());
      chunk = queue.poll(50, TimeUnit.MILLISECONDS);
      if (chunk == null) {
        // An interrupt user code swallowed (a function that caught it) must not leave this worker
        // waiting for input that a failed task will never send.
        coordinator.throwIfFailed();
        return null;
      }
    }
    if (blocked[chunk.channel]) {
      parked[chunk.channel].add(chunk);
      return null;
    }
    return chunk;
  }

  /** Processes the chunk; false if it was parked half done, to be resumed later. */
  private boolean process(Chunk chunk) throws Exception {
    Object[] elements = chunk.elements;
    Object[] keys = chunk.keys;
    boolean[] parts = chunk.parts;
    head.prefetch(keys, chunk.position, chunk.size);
    for (int i = chunk.position; i < chunk.size; i++) {
      Object element = elements[i];
      if (parts[i]) {
        head.emitKeyedParts(keys[i], chunk.split, chunk.offsets[i], element, chunk.timestamps[i]);
      } else if (element instanceof Record<?> record) {
        head.emitKeyed(keys[i], record);
      } else if (element instanceof Mark.Watermark w) {
        watermarks[chunk.channel] = w.value();
        idle[chunk.channel] = false;
        advanceWatermark();
      } else if (element == Mark.IDLE) {
        idle[chunk.channel] = true;
        advanceWatermark();
      } else if (element instanceof Mark.Barrier b) {
        if (!barrier(chunk.channel, b.checkpointId())) {
          chunk.position = i + 1;
          parked[chunk.channel].addFirst(chunk);
          return false;
        }
      } else {
        ended[chunk.channel] = true;
        endedCount++;
        if (endedCount < channels) {
          advanceWatermark();
        }
      }
    }
    return true;
  }

  /**
   * Moves event time to the least watermark of the channels that are neither idle nor ended. An
   * ended channel holds nothing back, but does not move event time on either: its end may be a
   * stop, not the end of its input (which sends the highest watermark first, if windows fire at the
   * end), and with the others idle a stop would fire every open window half full.
   */
  private void advanceWatermark() throws Exception {
    long least = Long.MAX_VALUE;
    boolean active = false;
    for (int c = 0; c < channels; c++) {
      if (!idle[c] && !ended[c]) {
        active = true;
        least = Math.min(least, watermarks[c]);
      }
    }
    if (!active) {
      if (!saidIdle) {
        saidIdle = true;
        head.idle();
      }
      return;
    }
    if (least > watermark) {
      watermark = least;
      head.watermark(least);
    } else if (saidIdle) {
      // Active again without moving on: the next stage must count this worker again.
      head.watermark(watermark);
    }
    saidIdle = false;
  }

  /** Returns false if the channel must wait for the others' barriers. */
  private boolean barrier(int channel, long checkpointId) throws Exception {
    if (channels > 1) {
      barriersSeen++;
      if (barriersSeen < channels - endedCount) {
        blocked[channel] = true;
        return false;
      }
      barriersSeen = 0;
      java.util.Arrays.fill(blocked, false);
    }
    if (lastCheckpoint > 0) {
      coordinator.awaitComplete(lastCheckpoint);
    }
    state.notifyComplete(coordinator.completed());
    head.barrier(checkpointId);
    Map<String, byte[]> parts = state.snapshot(checkpointId);
    // Once a task failed, the others are interrupted, and a function cut short by that interrupt
    // may have dead-lettered or dropped its record as if it failed on its own: a checkpoint acked
    // now could count that record as done. The run is failing anyway; take part in nothing more.
    coordinator.throwIfFailed();
    coordinator.ackWorker(checkpointId, watermark, parts);
    lastCheckpoint = checkpointId;
    return true;
  }
}
