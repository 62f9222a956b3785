package dev.statekit.stream.internal.state;

import dev.statekit.stream.state.ListState;
import dev.statekit.stream.state.MapState;
import dev.statekit.stream.state.ValueState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The state handles: each reads and writes one slot of the cache's current key and namespace. */
final class StateHandles {
  private StateHandles() {}

  static final class Value<T> implements ValueState<T> {
    private final KeyedStateCache cache;
    private final int index;

    Value(KeyedStateCache cache, int index) {
      this.cache = cache;
      this.index = index;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T value() {
      Object[] space = cache.space(false);
      return space == null ? null : (T) space[index];
    }

    @Override
    public void update(T value) {
      if (value == null) {
        clear();
        return;
      }
      cache.space(true)[index] = value;
      cache.markDirty();
    }

    @Override
    public void clear() {
      Object[] space = cache.space(false);
      if (space != null && space[index] != null) {
        space[index] = null;
        cache.cleared(space);
      }
    }
  }

  static final class ListOf<T> implements ListState<T> {
    private final KeyedStateCache cache;
    private final int index;

    ListOf(KeyedStateCache cache, int index) {
      this.cache = cache;
      this.index = index;
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<T> get() {
      Object[] space = cache.space(false);
      return space == null || space[index] == null
          ? List.of()
          : Collections.unmodifiableList((List<T>) space[index]);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void add(T value) {
      Object[] space = cache.space(true);
      if (space[index] == null) {
        space[index] = new ArrayList<T>(4);
      }
      ((List<T>) space[index]).add(value);
      cache.markDirty();
    }

    @Override
    public void update(List<T> values) {
      if (values.isEmpty()) {
        clear();
        return;
      }
      cache.space(true)[index] = new ArrayList<>(values);
      cache.markDirty();
    }

    @Override
    public void clear() {
      Object[] space = cache.space(false);
      if (space != null && space[index] != null) {
        space[index] = null;
        cache.cleared(space);
      }
    }
  }

  static final class MapOf<K, V> implements MapState<K, V> {
    private final KeyedStateCache cache;
    private final int index;

    MapOf(KeyedStateCache cache, int index) {
      this.cache = cache;
      this.index = index;
    }

    @SuppressWarnings("unchecked")
    private Map<K, V> map() {
      Object[] space = cache.space(false);
      return space == null || space[index] == null ? Map.of() : (Map<K, V>) space[index];
    }

    @Override
    public V get(K key) {
      return map().get(key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void put(K key, V value) {
      Object[] space = cache.space(true);
      if (space[index] == null) {
        space[index] = new HashMap<K, V>(4);
      }
      ((Map<K, V>) space[index]).put(key, value);
      cache.markDirty();
    }

    @Override
    public void remove(K key) {
      Map<K, V> map = map();
      if (map.containsKey(key)) {
        map.remove(key);
        if (map.isEmpty()) {
          Object[] space = cache.space(false);
          space[index] = null;
          cache.cleared(space);
        } else {
          cache.markDirty();
        }
      }
    }

    @Override
    public boolean contains(K key) {
      return map().containsKey(key);
    }

    @Override
    public Map<K, V> entries() {
      return Collections.unmodifiableMap(map());
    }

    @Override
    public void clear() {
      Object[] space = cache.space(false);
      if (space != null && space[index] != null) {
        space[index] = null;
        cache.cleared(space);
      }
    }
  }
}
