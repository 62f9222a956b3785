package dev.statekit.entry;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A value built the first time it is asked for, then kept: the way to wire what only some payloads
 * need (an SDK client, the runtime, a pipeline) so that a cold start pays only for what its first
 * payload uses. Thread-safe: concurrent first calls build the value once. If building throws, the
 * exception reaches the caller, nothing is kept, and the next call builds again.
 *
 * <pre>{@code
 * Lazy<DynamoDbClient> dynamoDb = Lazy.of(aws::dynamoDbClient);
 * Lazy<FunctionRuntime> runtime =
 *     Lazy.of(() -> FunctionRuntime.builder(functions).store(new DynamoDbFunctionStore(dynamoDb.get(), table)) ... .build());
 * EntryPoint.builder().functions(functions).runtime(runtime, queueUrl) ...
 * }</pre>
 *
 * Under SnapStart, build everything before the snapshot (a {@linkplain EntryPointBuilder#primer
 * primer} calling {@link #get()}), so that a restored environment finds it built.
 *
 * @param <T> the value's type
 */
public final class Lazy<T> implements Supplier<T> {
  private final Supplier<? extends T> factory;
  private volatile T value;

  private Lazy(Supplier<? extends T> factory) {
    this.factory = factory;
  }

  /** A value {@code factory} builds on the first {@link #get()}; it must not return null. */
  public static <T> Lazy<T> of(Supplier<? extends T> factory) {
    return new Lazy<>(Objects.requireNonNull(factory, "factory"));
  }

  /**
   * The value, built by this call if no call built it before.
   *
   * @throws IllegalStateException if the factory returned null
   * @throws RuntimeException what the factory threw
   */
  @Override
  public T get() {
    T built = value;
    if (built != null) {
      return built;
    }
    synchronized (this) {
      if (value == null) {
        T made = factory.get();
        if (made == null) {
          throw new IllegalStateException("The factory of a Lazy value returned null: " + factory);
        }
        value = made;
      }
      return value;
    }
  }

  /** Whether the value has been built. */
  public boolean isBuilt() {
    return value != null;
  }

  @Override
  public String toString() {
    return isBuilt() ? "Lazy[" + value + "]" : "Lazy[not built]";
  }
}
