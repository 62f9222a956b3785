package dev.statekit.stream.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.Source;
import dev.statekit.stream.SourceReader;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the source stage: polls the source, pushes each record down the chain, emits watermarks
 * after each poll and injects checkpoint barriers between polls (at the interval and at the end).
 */
final class SourceTask implements Runnable {
  static final String PART = "source";

  private final Source<Object> source;
  private final Map<String, String> positions;
  private final Operator head;
  private final WatermarkSpec.Generator watermarks;
  private final KeyedExchange exchange;
  private final TaskState state;
  private final CheckpointCoordinator coordinator;
  private final long intervalNanos;
  private final boolean fireWindowsAtEnd;
  private volatile boolean stopRequested;
  private long lastCheckpoint;

  SourceTask(
      Source<Object> source,
      Map<String, String> positions,
      Operator head,
      WatermarkSpec.Generator watermarks,
      KeyedExchange exchange,
      TaskState state,
      CheckpointCoordinator coordinator,
      long intervalNanos,
      boolean fireWindowsAtEnd) {
    this.source = source;
    this.positions = positions;
    this.head = head;
    this.watermarks = watermarks;
    this.exchange = exchange;
    this.state = state;
    this.coordinator = coordinator;
    this.intervalNanos = intervalNanos;
    this.fireWindowsAtEnd = fireWindowsAtEnd;
  }

  void requestStop() {
    stopRequested = true;
  }

  @Override
  public void run() {
    try (SourceReader<Object> reader = source.open(positions)) {
      read(reader);
    } catch (Exception e) {
      throw Sneaky.propagate(e);
    }
  }

  private void read(SourceReader<Object> reader) throws Exception {
    Emitter emitter = new Emitter();
    long lastCheckpointAt = System.nanoTime();
    long lastRecordAt = lastCheckpointAt;
    boolean more = true;
    while (more && !stopRequested) {
      long before = emitter.count;
      more = reader.poll(emitter);
      if (watermarks != null) {
        watermarks.afterPoll();
      }
      long now = System.nanoTime();
      if (emitter.count > before) {
        lastRecordAt = now;
      } else {
        if (watermarks != null) {
          watermarks.idle(TimeUnit.NANOSECONDS.toMillis(now - lastRecordAt));
        }
        if (exchange != null) {
          exchange.flush();
        }
        if (more) {
          Thread.sleep(1);
        }
      }
      state.notifyComplete(coordinator.completed());
      if (intervalNanos > 0 && now - lastCheckpointAt >= intervalNanos && more) {
        checkpoint(reader);
        lastCheckpointAt = now;
      }
    }
    state.metrics.recordsIn = emitter.count;
    if (!more && fireWindowsAtEnd && watermarks != null) {
      watermarks.endOfInput();
    }
    long last = checkpoint(reader);
    head.end();
    coordinator.awaitComplete(last);
    state.notifyComplete(last);
  }

  private long checkpoint(SourceReader<Object> reader) throws Exception {
    long id = coordinator.begin();
    Map<String, String> at = reader.positions();
    head.barrier(id);
    Map<String, byte[]> parts = state.snapshot(id);
    long watermark = Long.MIN_VALUE;
    if (watermarks != null) {
      parts.put(PART, watermarks.snapshot());
      watermark = watermarks.currentWatermark();
    }
    coordinator.ackSource(id, at, watermark, parts);
    lastCheckpoint = id;
    return id;
  }

  long lastCheckpoint() {
    return lastCheckpoint;
  }

  private final class Emitter implements Consumer<Record<Object>> {
    long count;

    @Override
    public void accept(Record<Object> record) {
      count++;
      try {
        head.emit(record);
      } catch (Exception e) {
        throw Sneaky.propagate(e);
      }
    }
  }
}
