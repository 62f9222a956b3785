package dev.statekit.benchmarks.operators;

import dev.statekit.benchmarks.Result;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.RunOptions;
import dev.statekit.stream.Sinks;
import dev.statekit.stream.Sources;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.state.CheckpointManifest;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.InMemoryStateTable;
import dev.statekit.stream.state.StateBackend;
import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.StoredState;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A checkpoint of a window pipeline with 1,000,000 open windows (one per key) when 1,000 windows
 * were opened since the last checkpoint: the time from reserving the checkpoint to completing it,
 * and the bytes of timers and checkpoint parts it wrote. The first run opens the windows and ends
 * with a checkpoint that keeps them open; the second restores it, reads 1,000 records of new keys
 * and ends with the measured checkpoint.
 */
final class TimerCheckpoint {
  private static final int KEYS = 1_000_000;
  private static final int CHANGED = 1000;

  private long timerBytes;
  private long partBytes;
  private long begun;
  private double checkpointMs;

  private TimerCheckpoint() {}

  static Result measure(PrintStream log, String suite) throws InterruptedException {
    TimerCheckpoint m = new TimerCheckpoint();
    StateTable table = m.counting(new InMemoryStateTable());
    CheckpointStore store = m.timing(CheckpointStore.inMemory());
    m.run(table, store, KEYS);
    double firstMs = m.checkpointMs;
    long firstTimerBytes = m.timerBytes;
    m.timerBytes = 0;
    m.partBytes = 0;
    m.run(table, store, KEYS + CHANGED);
    log.printf(
        "window timers: checkpoint with %,d open windows, %,d of them new: %.1f ms, %,d bytes of"
            + " timers and %,d bytes of parts written (the first, opening all: %.0f ms, %,d bytes)%n",
        KEYS + CHANGED,
        CHANGED,
        m.checkpointMs,
        m.timerBytes,
        m.partBytes,
        firstMs,
        firstTimerBytes);
    return Result.of(suite, "checkpoint-window-timers")
        .with("open_windows", KEYS + CHANGED)
        .with("new_windows", CHANGED)
        .with("checkpoint_ms", m.checkpointMs)
        .with("timer_bytes", m.timerBytes)
        .with("part_bytes", m.partBytes)
        .with("first_checkpoint_ms", firstMs)
        .with("first_timer_bytes", firstTimerBytes);
  }

  /** Runs over records {@code 0 .. count-1}, each a new key's window; windows stay open. */
  private void run(StateTable table, CheckpointStore store, int count) throws InterruptedException {
    Pipeline.from(Sources.generate(count, i -> "k" + i, i -> i % 1000, 1024))
        .withWatermarks(WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ofSeconds(1)))
        .keyBy(key -> key, 1)
        .window(Windows.tumbling(Duration.ofHours(1)))
        .aggregate(AggregateFunction.<String>count())
        .to(Sinks.discard())
        .run(
            RunOptions.named("timers")
                .stateBackend(StateBackend.over(table, Integer.MAX_VALUE))
                .checkpointStore(store)
                .fireWindowsAtEnd(false)
                .build());
  }

  private StateTable counting(InMemoryStateTable inner) {
    return new StateTable() {
      @Override
      public Map<String, StoredState> read(String scope, Collection<String> keys) {
        return inner.read(scope, keys);
      }

      @Override
      public void write(String scope, List<StateWrite> writes) {
        inner.write(scope, writes);
      }

      @Override
      public Map<String, byte[]> readCollection(String collection) {
        return inner.readCollection(collection);
      }

      @Override
      public void writeCollection(
          String collection, Map<String, byte[]> puts, Collection<String> deletes) {
        puts.values().forEach(bytes -> timerBytes += bytes.length);
        inner.writeCollection(collection, puts, deletes);
      }
    };
  }

  private CheckpointStore timing(CheckpointStore inner) {
    return new CheckpointStore() {
      @Override
      public long begin(String pipeline) {
        begun = System.nanoTime();
        return inner.begin(pipeline);
      }

      @Override
      public void writePart(String pipeline, long checkpointId, String part, byte[] data) {
        partBytes += data.length;
        inner.writePart(pipeline, checkpointId, part, data);
      }

      @Override
      public void complete(String pipeline, CheckpointManifest manifest) {
        inner.complete(pipeline, manifest);
        checkpointMs = (System.nanoTime() - begun) / 1e6;
      }

      @Override
      public Optional<StoredCheckpoint> latest(String pipeline) {
        return inner.latest(pipeline);
      }

      @Override
      public long lastReserved(String pipeline) {
        return inner.lastReserved(pipeline);
      }
    };
  }
}
