package dev.statekit.stream.state;

import java.util.Collection;

/**
 * The keyed state of one operator on one worker: value, list and map state per key and namespace (a
 * window, or none). An operator registers its specs, then for each record sets the current key (and
 * namespace) and reads and writes through the handles. Changes stay in memory until {@link #flush},
 * which a checkpoint barrier triggers. Not thread-safe: one worker thread uses it.
 */
public interface KeyedStateStore extends AutoCloseable {
  /** The namespace of state that belongs to no window. */
  Object NO_NAMESPACE = "";

  /**
   * Registers a spec and returns its handle, bound to whatever key and namespace are current when
   * it is used. Register every spec before the first record.
   *
   * @throws IllegalArgumentException if another spec of the same name is registered
   */
  <S> S register(StateSpec<S> spec);

  /** Makes {@code key} current (and the namespace {@link #NO_NAMESPACE}). */
  void setCurrentKey(Object key);

  /** The current key. */
  Object currentKey();

  /** Makes {@code namespace} current for the current key; it needs equals and hashCode. */
  void setNamespace(Object namespace);

  /** The namespaces the current key has state in, besides {@link #NO_NAMESPACE}. */
  Collection<Object> namespaces();

  /** True if {@link #prefetch} would save reads now (the backend may hold keys not in memory). */
  default boolean wantsPrefetch() {
    return false;
  }

  /** A hint that these keys come next: a remote backend reads the missing ones in one batch. */
  void prefetch(Collection<?> keys);

  /**
   * Writes every key changed since the last flush as of checkpoint {@code checkpointId}. Writes
   * stay invisible to a restore until the checkpoint is marked complete.
   *
   * @throws StateStoreException if the backend refused the writes
   */
  void flush(long checkpointId);

  /** Checkpoint {@code checkpointId} is complete: its writes are now the restorable state. */
  void checkpointComplete(long checkpointId);

  /** How many keys are held in memory. */
  int cachedKeys();

  @Override
  default void close() {}
}
