package dev.statekit.entry.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Consumers by source name (a queue, a stream, a table), with an optional consumer for every other
 * name. Records of one batch are grouped by source name, keeping their order.
 *
 * @param <C> the consumer type
 */
public final class Routes<C> {
  private final String kind;
  private final Map<String, C> byName = new LinkedHashMap<>();
  private C any;

  /** Routes for sources of {@code kind} ("queue", "Kinesis stream", ...). */
  public Routes(String kind) {
    this.kind = kind;
  }

  /** A copy that later additions to this one do not change. */
  public Routes<C> copy() {
    Routes<C> copy = new Routes<>(kind);
    copy.byName.putAll(byName);
    copy.any = any;
    return copy;
  }

  /** Adds the consumer of {@code name}; refuses a name given twice. */
  public void add(String name, C consumer) {
    Objects.requireNonNull(consumer, "consumer");
    if (name.isBlank()) {
      throw new IllegalArgumentException("A " + kind + " name is not blank; give its name or ARN");
    }
    if (byName.putIfAbsent(name, consumer) != null) {
      throw new IllegalArgumentException(
          "The " + kind + " " + name + " already has a consumer; register each " + kind + " once");
    }
  }

  /** Sets the consumer of every name not added; refuses a second one. */
  public void addAny(C consumer) {
    Objects.requireNonNull(consumer, "consumer");
    if (any != null) {
      throw new IllegalArgumentException(
          "Every other " + kind + " already has a consumer; register it once");
    }
    any = consumer;
  }

  /** True if nothing is registered. */
  public boolean isEmpty() {
    return byName.isEmpty() && any == null;
  }

  /** The consumer of {@code name}, or {@code null}. */
  public C get(String name) {
    C consumer = byName.get(name);
    return consumer != null ? consumer : any;
  }

  /** What is registered, for messages: {@code queue a, queue b, any other queue}. */
  public List<String> describe() {
    List<String> names = new ArrayList<>();
    byName.keySet().forEach(name -> names.add(kind + " " + name));
    if (any != null) {
      names.add("any other " + kind);
    }
    return names;
  }

  /** Groups {@code records} by their source name, in first-seen order, keeping record order. */
  public static <R> Map<String, List<R>> group(List<R> records, Function<R, String> name) {
    Map<String, List<R>> groups = new LinkedHashMap<>();
    for (R record : records) {
      groups.computeIfAbsent(name.apply(record), n -> new ArrayList<>()).add(record);
    }
    return groups;
  }
}
