package dev.statekit.stream.internal;

import dev.statekit.stream.Collector;
import dev.statekit.stream.Record;
import java.util.ArrayList;

/** A reusable collector: values are held until the function returns, then emitted or dropped. */
final class OutputBuffer implements Collector<Object> {
  private final ArrayList<Object> values = new ArrayList<>();

  @Override
  public void collect(Object value) {
    values.add(value);
  }

  /** Emits the collected values as records derived from {@code input}. */
  void drainTo(Record<?> input, Output next) throws Exception {
    try {
      for (int i = 0; i < values.size(); i++) {
        next.emit(input.withValue(values.get(i)));
      }
    } finally {
      values.clear();
    }
  }

  /** Emits the collected values with another key and timestamp. */
  void drainTo(Object key, long timestamp, Output next) throws Exception {
    try {
      for (int i = 0; i < values.size(); i++) {
        next.emit(Record.of(key, values.get(i), timestamp, java.util.Map.of(), null));
      }
    } finally {
      values.clear();
    }
  }

  /** How many values are held. */
  int size() {
    return values.size();
  }

  void clear() {
    values.clear();
  }
}
