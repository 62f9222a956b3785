package dev.statekit.entry.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Consumers by declared source (a queue, a stream, a table), with an optional consumer for every
 * other source of that kind, registered only by an explicit opt-in.
 *
 * @param <C> the consumer type
 */
public final class Routes<C> {
  private final SourceKind kind;
  private final List<Route<C>> declared = new ArrayList<>();
  private C any;

  private record Route<C>(DeclaredSource source, C consumer) {}

  /** Routes for sources of {@code kind}. */
  public Routes(SourceKind kind) {
    this.kind = kind;
  }

  /** A copy that later additions to this one do not change. */
  public Routes<C> copy() {
    Routes<C> copy = new Routes<>(kind);
    copy.declared.addAll(declared);
    copy.any = any;
    return copy;
  }

  /**
   * Adds the consumer of the source named by {@code nameUrlOrArn}; refuses one given twice.
   *
   * @throws IllegalArgumentException if it names no source of this kind, or one already routed
   */
  public void add(String nameUrlOrArn, C consumer) {
    Objects.requireNonNull(consumer, "consumer");
    DeclaredSource source = DeclaredSource.of(kind, nameUrlOrArn);
    for (Route<C> route : declared) {
      if (route.source().name().equals(source.name())) {
        throw new IllegalArgumentException(
            "The "
                + kind.label()
                + " "
                + source.name()
                + " already has a consumer; register each "
                + kind.label()
                + " once");
      }
    }
    declared.add(new Route<>(source, consumer));
  }

  /** Sets the consumer of every source not added; refuses a second one. */
  public void addAny(C consumer) {
    Objects.requireNonNull(consumer, "consumer");
    if (any != null) {
      throw new IllegalArgumentException(
          "Every other " + kind.label() + " already has a consumer; register it once");
    }
    any = consumer;
  }

  /** True if nothing is registered. */
  public boolean isEmpty() {
    return declared.isEmpty() && any == null;
  }

  /** Whether every source not declared is taken too ({@link #addAny}). */
  public boolean takesAny() {
    return any != null;
  }

  /** The consumer of the source {@code arn} names, or {@code null}. */
  public C get(SourceArn arn) {
    for (Route<C> route : declared) {
      if (route.source().matches(arn)) {
        return route.consumer();
      }
    }
    return any;
  }

  /** What is registered, for messages: {@code queue a, queue b, any other queue}. */
  public List<String> describe() {
    List<String> names = new ArrayList<>();
    declared.forEach(route -> names.add(route.source().toString()));
    if (any != null) {
      names.add("any other " + kind.label());
    }
    return names;
  }
}
