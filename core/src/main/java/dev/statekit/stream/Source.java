package dev.statekit.stream;

import java.util.Map;

/**
 * Where a pipeline's records come from. A source is read by one thread; it is opened once per run
 * at the positions of the restored checkpoint, so a source that can replay makes the pipeline's
 * results exactly once.
 *
 * @param <T> the records' value type
 */
public interface Source<T> {
  /**
   * Opens a reader.
   *
   * @param positions for each split, the offset of the last record a restored checkpoint covers:
   *     the reader resumes after it; empty when the pipeline starts fresh
   */
  SourceReader<T> open(Map<String, String> positions) throws Exception;

  /** A short name for the graph view. */
  default String name() {
    return getClass().getSimpleName();
  }
}
