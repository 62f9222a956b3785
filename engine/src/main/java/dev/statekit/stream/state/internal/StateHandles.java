package dev.statekit.stream.state.internal;

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

  /** One slot of the current key and namespace. */
  private abstract static class Slot {
    final KeyedStateCache cache;
    final int index;

    Slot(KeyedStateCache cache, int index) {
      this.cache = cache;
      this.index = index;
    }

    /** The slot's content, or null. */
    final Object content() {
      Object[] space = cache.space(false);
      return space == null ? null : space[index];
    }

    final void set(Object value) {
      cache.spaceToChange(true)[index] = value;
      cache.markDirty();
    }

    public final void clear() {
      if (content() == null) {
        return;
      }
      Object[] space = cache.spaceToChange(false);
      if (space != null && space[index] != null) {
        space[index] = null;
        cache.cleared(space);
      }
    }
  }

  static final class Value<T> extends Slot implements ValueState<T> {
    Value(KeyedStateCache cache, int index) {
      super(cache, index);
    }

    @Override
    @SuppressWarnings("unchecked")
    public T value() {
      return (T) content();
    }

    @Override
    public void update(T value) {
      if (value == null) {
        clear();
        return;
      }
      set(value);
    }
  }

  static final class ListOf<T> extends Slot implements ListState<T> {
    ListOf(KeyedStateCache cache, int index) {
      super(cache, index);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<T> get() {
      List<T> list = (List<T>) content();
      return list == null ? List.of() : Collections.unmodifiableList(list);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void add(T value) {
      Object[] space = cache.spaceToChange(true);
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
      set(new ArrayList<>(values));
    }
  }

  static final class MapOf<K, V> extends Slot implements MapState<K, V> {
    MapOf(KeyedStateCache cache, int index) {
      super(cache, index);
    }

    @SuppressWarnings("unchecked")
    private Map<K, V> map() {
      Map<K, V> map = (Map<K, V>) content();
      return map == null ? Map.of() : map;
    }

    @Override
    public V get(K key) {
      return map().get(key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void put(K key, V value) {
      Object[] space = cache.spaceToChange(true);
      if (space[index] == null) {
        space[index] = new HashMap<K, V>(4);
      }
      ((Map<K, V>) space[index]).put(key, value);
      cache.markDirty();
    }

    @Override
    public void remove(K key) {
      if (map().containsKey(key)) {
        cache.spaceToChange(false);
        Map<K, V> map = map();
        map.remove(key);
        if (map.isEmpty()) {
          clear();
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
  }
}
