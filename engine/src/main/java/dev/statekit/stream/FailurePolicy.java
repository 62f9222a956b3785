package dev.statekit.stream;

import java.util.Objects;

/**
 * What a {@code process} stage does when its function throws.
 *
 * @param <T> the stage's input type
 */
public final class FailurePolicy<T> {
  /** The three policies. */
  public enum Kind {
    /** Skip the record and count it. */
    DROP,
    /** Send the record and the error to a dead-letter sink, and count it. */
    DEAD_LETTER,
    /** Stop the pipeline with the error. */
    FAIL
  }

  private final Kind kind;
  private final Sink<DeadLetter<T>> deadLetters;

  private FailurePolicy(Kind kind, Sink<DeadLetter<T>> deadLetters) {
    this.kind = kind;
    this.deadLetters = deadLetters;
  }

  /** Skips failed records (they are counted in the run's result). */
  public static <T> FailurePolicy<T> drop() {
    return new FailurePolicy<>(Kind.DROP, null);
  }

  /** Sends failed records, with their errors, to {@code sink}. */
  public static <T> FailurePolicy<T> deadLetter(Sink<DeadLetter<T>> sink) {
    return new FailurePolicy<>(Kind.DEAD_LETTER, Objects.requireNonNull(sink, "sink"));
  }

  /** Fails the pipeline on the first error (the default). */
  public static <T> FailurePolicy<T> fail() {
    return new FailurePolicy<>(Kind.FAIL, null);
  }

  /** Which policy this is. */
  public Kind kind() {
    return kind;
  }

  /** The dead-letter sink, or null unless {@link Kind#DEAD_LETTER}. */
  public Sink<DeadLetter<T>> deadLetters() {
    return deadLetters;
  }

  @Override
  public String toString() {
    return kind == Kind.DEAD_LETTER ? "dead-letter(" + deadLetters.name() + ")" : kind.name();
  }
}
