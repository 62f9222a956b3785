package dev.statekit.stream;

import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.Objects;

/**
 * How to run a pipeline: its name (which keys its state and checkpoints), the default parallelism
 * of keyed stages, the state backend, the checkpoint store and interval, and the sizes of the
 * hand-off between stages. Immutable; build with {@link #named(String)}.
 */
public final class RunOptions {
  private final String name;
  private final int parallelism;
  private final StateBackend stateBackend;
  private final CheckpointStore checkpointStore;
  private final Duration checkpointInterval;
  private final int chunkSize;
  private final int queueChunks;
  private final boolean fireWindowsAtEnd;
  private final boolean restore;

  private RunOptions(Builder b) {
    this.name = b.name;
    this.parallelism = b.parallelism;
    this.stateBackend = b.stateBackend != null ? b.stateBackend : StateBackend.inMemory();
    this.checkpointStore =
        b.checkpointStore != null ? b.checkpointStore : CheckpointStore.inMemory();
    this.checkpointInterval = b.checkpointInterval;
    this.chunkSize = b.chunkSize;
    this.queueChunks = b.queueChunks;
    this.fireWindowsAtEnd = b.fireWindowsAtEnd;
    this.restore = b.restore;
  }

  /**
   * Starts options for the pipeline {@code name}: letters, digits, '.', '_' and '-', at most 100
   * characters. Runs with the same name, backend and store continue from each other's checkpoints.
   */
  public static Builder named(String name) {
    return new Builder(name);
  }

  /** The pipeline's name. */
  public String name() {
    return name;
  }

  /**
   * Workers of keyed stages whose keyBy gives no partition count, and readers of a source that can
   * be split (at most its {@link Source#maxReaders()}).
   */
  public int parallelism() {
    return parallelism;
  }

  /** Where keyed state lives. */
  public StateBackend stateBackend() {
    return stateBackend;
  }

  /** Where checkpoints are kept. */
  public CheckpointStore checkpointStore() {
    return checkpointStore;
  }

  /** Time between checkpoints; zero for a checkpoint only at the end of input. */
  public Duration checkpointInterval() {
    return checkpointInterval;
  }

  /** Elements per chunk handed between stages. */
  public int chunkSize() {
    return chunkSize;
  }

  /** Chunks a worker's input queue holds before upstream blocks. */
  public int queueChunks() {
    return queueChunks;
  }

  /** True if the end of input fires every open window (a final watermark). */
  public boolean fireWindowsAtEnd() {
    return fireWindowsAtEnd;
  }

  /** True if the run restores the latest complete checkpoint. */
  public boolean restore() {
    return restore;
  }

  /** Builds {@link RunOptions}. */
  public static final class Builder {
    private final String name;
    private int parallelism = 1;
    private StateBackend stateBackend;
    private CheckpointStore checkpointStore;
    private Duration checkpointInterval = Duration.ZERO;
    private int chunkSize = 1024;
    private int queueChunks = 8;
    private boolean fireWindowsAtEnd = true;
    private boolean restore = true;

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (!name.matches("[A-Za-z0-9._-]{1,100}")) {
        throw new IllegalArgumentException(
            "A pipeline name is 1 to 100 letters, digits, '.', '_' or '-', got '" + name + "'");
      }
      this.name = name;
    }

    /**
     * Workers of keyed stages without an explicit partition count, and readers of a source that can
     * be split (default 1).
     */
    public Builder parallelism(int parallelism) {
      if (parallelism < 1 || parallelism > 1024) {
        throw new IllegalArgumentException("parallelism is 1 to 1024, got " + parallelism);
      }
      this.parallelism = parallelism;
      return this;
    }

    /** Where keyed state lives (default: a new in-memory backend). */
    public Builder stateBackend(StateBackend backend) {
      this.stateBackend = Objects.requireNonNull(backend, "backend");
      return this;
    }

    /** Where checkpoints are kept (default: a new in-memory store). */
    public Builder checkpointStore(CheckpointStore store) {
      this.checkpointStore = Objects.requireNonNull(store, "store");
      return this;
    }

    /** Takes a checkpoint every {@code interval}, and one at the end (default: only at the end). */
    public Builder checkpointInterval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.isNegative()) {
        throw new IllegalArgumentException("The checkpoint interval is >= 0, got " + interval);
      }
      this.checkpointInterval = interval;
      return this;
    }

    /** Elements per chunk between stages (default 1024) and chunks per queue (default 8). */
    public Builder handOff(int chunkSize, int queueChunks) {
      if (chunkSize < 1 || queueChunks < 1) {
        throw new IllegalArgumentException(
            "chunkSize and queueChunks are >= 1, got " + chunkSize + " and " + queueChunks);
      }
      this.chunkSize = chunkSize;
      this.queueChunks = queueChunks;
      return this;
    }

    /**
     * Whether the end of input fires every open window (default true). A run over one batch of an
     * unbounded stream sets false: its windows stay open in the checkpoint for the next batch.
     */
    public Builder fireWindowsAtEnd(boolean fire) {
      this.fireWindowsAtEnd = fire;
      return this;
    }

    /** Whether to restore the latest complete checkpoint (default true). */
    public Builder restore(boolean restore) {
      this.restore = restore;
      return this;
    }

    /** The options. */
    public RunOptions build() {
      return new RunOptions(this);
    }
  }
}
