package dev.statekit.stream;

import java.util.Map;

/**
 * Where a pipeline's records come from. A source is opened once per run at the positions of the
 * restored checkpoint, so a source that can replay makes the pipeline's results exactly once.
 *
 * <p>A source that can be read by several threads at once (a generator split by index, a stream
 * split by shards) says so with {@link #maxReaders()}: a run then opens {@code min(maxReaders(),
 * RunOptions.parallelism())} readers with {@link #open(int, int, Map)}, each running the stateless
 * operators before the first keyBy on its own thread. Each reader reports the positions of its own
 * splits; a checkpoint holds them all.
 *
 * @param <T> the records' value type
 */
public interface Source<T> {
  /**
   * Opens the only reader.
   *
   * @param positions for each split, the offset of the last record a restored checkpoint covers:
   *     the reader resumes after it; empty when the pipeline starts fresh
   */
  SourceReader<T> open(Map<String, String> positions) throws Exception;

  /**
   * How many readers may read this source at once (default 1). Records of one reader keep their
   * order; records of different readers interleave in no particular order.
   */
  default int maxReaders() {
    return 1;
  }

  /**
   * Opens reader {@code reader} of {@code readers}; the readers together hand out every record
   * once. The default, for sources of one reader, is {@link #open(Map)}.
   *
   * @param reader this reader's index, {@code 0 .. readers-1}
   * @param readers how many readers the run opens, at most {@link #maxReaders()}
   * @param positions the positions of every split in the restored checkpoint (of all readers);
   *     empty when the pipeline starts fresh
   * @throws IllegalArgumentException if the positions were taken with a split layout this reader
   *     count cannot resume (say so, and which reader count can)
   */
  default SourceReader<T> open(int reader, int readers, Map<String, String> positions)
      throws Exception {
    if (readers != 1 || reader != 0) {
      throw new IllegalArgumentException(
          name() + " has one reader, but reader " + reader + " of " + readers + " was opened");
    }
    return open(positions);
  }

  /** A short name for the graph view. */
  default String name() {
    return getClass().getSimpleName();
  }
}
