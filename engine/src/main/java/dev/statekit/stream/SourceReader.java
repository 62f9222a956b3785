package dev.statekit.stream;

import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads a source. The engine calls {@link #poll} in a loop and may take a checkpoint between two
 * calls, so one call should hand out a bounded number of records (a few hundred to a few thousand).
 *
 * @param <T> the records' value type
 */
public interface SourceReader<T> extends AutoCloseable {
  /**
   * Hands the records available now to {@code out}, possibly none.
   *
   * @return false once the input has ended (nothing more will come), true otherwise
   */
  boolean poll(Consumer<Record<T>> out) throws Exception;

  /**
   * For each split, the offset of the last record handed out; stored in checkpoints and given back
   * to {@link Source#open} on restore.
   */
  Map<String, String> positions();

  @Override
  default void close() throws Exception {}
}
