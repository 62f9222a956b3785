package dev.statekit.testing;

import dev.statekit.function.AddressScopedStorage;
import dev.statekit.function.ValueSpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Storage for tests. Values go through their type's serializer and back, as in production, so a
 * type that can't round-trip its values fails the test.
 */
final class TestStorage implements AddressScopedStorage {
  private final Map<String, ValueSpec<?>> specs = new HashMap<>();
  private final Map<String, byte[]> values = new HashMap<>();

  @Override
  public <T> Optional<T> get(ValueSpec<T> spec) {
    check(spec);
    byte[] bytes = values.get(spec.name());
    return bytes == null ? Optional.empty() : Optional.of(spec.type().deserialize(bytes));
  }

  @Override
  public <T> void set(ValueSpec<T> spec, T value) {
    check(spec);
    if (value == null) {
      throw new IllegalArgumentException(
          "State '" + spec.name() + "' can't be set to null; use remove(spec) to clear it");
    }
    values.put(spec.name(), spec.type().serialize(value));
  }

  @Override
  public <T> void remove(ValueSpec<T> spec) {
    check(spec);
    values.remove(spec.name());
  }

  /** One name, one type: the rule the registry enforces for declared specs. */
  private void check(ValueSpec<?> spec) {
    Objects.requireNonNull(spec, "spec");
    ValueSpec<?> known = specs.putIfAbsent(spec.name(), spec);
    if (known != null && !known.typeName().equals(spec.typeName())) {
      throw new IllegalArgumentException(
          "State '"
              + spec.name()
              + "' was used as a "
              + known.typeName()
              + " and now as a "
              + spec.typeName()
              + "; a state name has one type");
    }
  }
}
