package dev.statekit.function;

import java.util.Optional;

/**
 * The persisted values of the address a function is invoked on. Only values declared by the
 * function's {@link ValueSpec}s can be used; changes are kept only if the invocation succeeds.
 */
public interface AddressScopedStorage {
  /**
   * The current value, or empty if it has none (never written, removed or expired).
   *
   * @throws IllegalArgumentException if the function did not declare the spec
   */
  <T> Optional<T> get(ValueSpec<T> spec);

  /**
   * Replaces the value.
   *
   * @throws IllegalArgumentException if the function did not declare the spec or the value is null
   *     (use {@link #remove})
   */
  <T> void set(ValueSpec<T> spec, T value);

  /**
   * Removes the value.
   *
   * @throws IllegalArgumentException if the function did not declare the spec
   */
  <T> void remove(ValueSpec<T> spec);
}
