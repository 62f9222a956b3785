package dev.statekit.stream;

/**
 * Where a pipeline's results go. Each worker of the last stage opens its own writer, so writers
 * need no locking. A sink that commits at {@link SinkWriter#checkpointComplete} and honours {@link
 * #recover} gives exactly-once results across failures.
 *
 * @param <T> the records' value type
 */
public interface Sink<T> {
  /**
   * Opens the writer of one worker.
   *
   * @param worker this worker's index, {@code 0 .. workers-1}
   * @param workers how many workers write to this sink
   */
  SinkWriter<T> open(int worker, int workers) throws Exception;

  /**
   * Called once before a restored run opens writers: commit what was prepared for checkpoints up to
   * {@code checkpointId} and discard what was prepared for later ones (they will be replayed).
   */
  default void recover(long checkpointId) throws Exception {}

  /** A short name for the graph view. */
  default String name() {
    return getClass().getSimpleName();
  }
}
