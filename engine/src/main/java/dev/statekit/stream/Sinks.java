package dev.statekit.stream;

import java.util.function.Consumer;

/** Ready-made sinks. */
public final class Sinks {
  private Sinks() {}

  /**
   * Hands each record to {@code consumer} as soon as it is written (at least once across failures:
   * records after the last checkpoint are replayed). Calls are serialized across workers.
   */
  public static <T> Sink<T> forEach(Consumer<Record<T>> consumer) {
    return new Sink<>() {
      @Override
      public SinkWriter<T> open(int worker, int workers) {
        return record -> {
          synchronized (consumer) {
            consumer.accept(record);
          }
        };
      }

      @Override
      public String name() {
        return "forEach";
      }
    };
  }

  /** Discards every record. */
  public static <T> Sink<T> discard() {
    return new Sink<>() {
      @Override
      public SinkWriter<T> open(int worker, int workers) {
        return record -> {};
      }

      @Override
      public String name() {
        return "discard";
      }
    };
  }

  /** Counts records without keeping them. */
  public static <T> CountingSink<T> counting() {
    return new CountingSink<>();
  }

  /** Keeps records in memory, committed exactly once at checkpoints (for tests and demos). */
  public static <T> CollectingSink<T> collecting() {
    return new CollectingSink<>();
  }
}
