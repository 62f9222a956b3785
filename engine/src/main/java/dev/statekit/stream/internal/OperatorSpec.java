package dev.statekit.stream.internal;

import dev.statekit.stream.OperatorDescription;

/** A planned operator: describes itself and makes one running instance per worker. */
public interface OperatorSpec {
  /** Type, label and configuration, for the graph view. */
  OperatorDescription describe();

  /** True for operators that keep keyed state (they must follow a keyBy). */
  default boolean keyed() {
    return false;
  }

  /** A new instance for one worker. */
  Operator create();
}
