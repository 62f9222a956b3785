package dev.statekit.stream.internal.threaded;

import dev.statekit.stream.Record;
import dev.statekit.stream.Source;
import dev.statekit.stream.SourceReader;
import dev.statekit.stream.internal.Operator;
import dev.statekit.stream.internal.RecordParts;
import dev.statekit.stream.internal.TaskState;
import dev.statekit.stream.internal.WatermarkSpec;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one reader of the source stage: polls its reader, pushes each record down the chain, emits
 * watermarks after each poll and injects the checkpoint barriers that {@link SourceBarriers} calls
 * for between polls. Once its input ends it keeps injecting barriers until the run's last one.
 */
final class SourceTask implements Runnable {
  private final Source<Object> source;
  private final int reader;
  private final int readers;
  private final Map<String, String> positions;
  private final Operator head;
  private final WatermarkSpec.Generator watermarks;
  private final KeyedExchange exchange;
  private final TaskState state;
  private final CheckpointCoordinator coordinator;
  private final SourceBarriers barriers;
  private final boolean fireWindowsAtEnd;
  private volatile boolean stopRequested;
  private long lastCheckpoint;

  SourceTask(
      Source<Object> source,
      int reader,
      int readers,
      Map<String, String> positions,
      Operator head,
      WatermarkSpec.Generator watermarks,
      KeyedExchange exchange,
      TaskState state,
      CheckpointCoordinator coordinator,
      SourceBarriers barriers,
      boolean fireWindowsAtEnd) {
    this.source = source;
    this.reader = reader;
    this.readers = readers;
    this.positions = positions;
    this.head = head;
    this.watermarks = watermarks;
    this.exchange = exchange;
    this.state = state;
    this.coordinator = coordinator;
    this.barriers = barriers;
    this.fireWindowsAtEnd = fireWindowsAtEnd;
  }

  /** The checkpoint part holding the watermark generator of reader {@code reader}. */
  static String part(int reader, int readers) {
    return readers == 1 ? "source" : "source/" + reader + "-of-" + readers;
  }

  void requestStop() {
    stopRequested = true;
  }

  @Override
  public void run() {
    try (SourceReader<Object> in = source.open(reader, readers, positions)) {
      read(in);
    } catch (Exception e) {
      throw Sneaky.propagate(e);
    }
  }

  private void read(SourceReader<Object> in) throws Exception {
    Emitter emitter = new Emitter();
    if (watermarks != null) {
      watermarks.resend();
    }
    long lastRecordAt = System.nanoTime();
    boolean more = true;
    while (more && !stopRequested) {
      // A source or function that swallowed the run's interrupt would otherwise read on.
      coordinator.throwIfFailed();
      long before = emitter.count;
      more = in.poll(emitter);
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
      long due = barriers.due(lastCheckpoint, now);
      if (due > 0) {
        checkpoint(in, due);
      }
    }
    state.metrics.recordsIn = emitter.count;
    if (!more && fireWindowsAtEnd && watermarks != null) {
      watermarks.endOfInput();
    }
    barriers.ended();
    do {
      checkpoint(in, barriers.awaitNext(lastCheckpoint));
    } while (!barriers.isLast(lastCheckpoint));
    head.end();
    coordinator.awaitComplete(lastCheckpoint);
    state.notifyComplete(lastCheckpoint);
  }

  private void checkpoint(SourceReader<Object> in, long id) throws Exception {
    Map<String, String> at = in.positions();
    head.barrier(id);
    Map<String, byte[]> parts = state.snapshot(id);
    long watermark = Long.MIN_VALUE;
    boolean idle = false;
    if (watermarks != null) {
      parts.put(part(reader, readers), watermarks.snapshot());
      watermark = watermarks.currentWatermark();
      idle = watermarks.isIdle();
    }
    lastCheckpoint = id;
    barriers.injected(id);
    // As a worker does: after the run failed, an interrupted function's record may have been
    // dead-lettered or dropped as its own failure; no checkpoint may count it as done.
    coordinator.throwIfFailed();
    coordinator.ackSource(id, at, watermark, idle, parts);
  }

  /**
   * Counts the reader's records and pushes them down the chain; takes them as their parts where the
   * chain is only the exchange into a keyed stage (nothing would look at the record before the
   * worker).
   */
  private final class Emitter implements Consumer<Record<Object>>, RecordParts {
    private final KeyedExchange direct = Wiring.passesOn(head) ? exchange : null;
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

    @Override
    public void accept(String split, long offset, Object value, long timestamp) {
      count++;
      try {
        if (direct != null) {
          direct.emitParts(split, offset, value, timestamp);
        } else {
          head.emit(Record.at(split, offset, null, value, timestamp));
        }
      } catch (Exception e) {
        throw Sneaky.propagate(e);
      }
    }
  }
}
