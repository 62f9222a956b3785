package dev.statekit.stream;

import java.util.Map;
import java.util.TreeMap;

/**
 * How an operator describes itself in the graph view.
 *
 * @param type what it does: map, filter, flatMap, process, keyBy, reduce, window, sink...
 * @param label the name given by the user, or the type
 * @param config its settings, for example a window's size
 */
public record OperatorDescription(String type, String label, Map<String, String> config) {
  /** Copies the configuration in key order. */
  public OperatorDescription {
    config = Map.copyOf(config);
  }

  /** One line: {@code type "label" {k=v}}. */
  @Override
  public String toString() {
    return type
        + (label.equals(type) ? "" : " \"" + label + "\"")
        + (config.isEmpty() ? "" : " " + new TreeMap<>(config));
  }
}
