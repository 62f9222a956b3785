package dev.statekit.stream.internal;

import dev.statekit.stream.state.KeyedStateStore;
import java.util.ArrayList;
import java.util.List;

/** Hands a chunk's keys to a store that reads remotely, so it reads them in batches. */
final class Prefetch {
  private Prefetch() {}

  static void keys(KeyedStateStore store, Object[] keys, int from, int to) {
    if (!store.wantsPrefetch()) {
      return;
    }
    List<Object> present = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      if (keys[i] != null) {
        present.add(keys[i]);
      }
    }
    store.prefetch(present);
  }
}
