package dev.statekit.stream;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the records written. Each writer counts in a plain field and publishes at checkpoints and
 * on close, so counting costs no contended write per record.
 *
 * @param <T> the records' value type
 */
public final class CountingSink<T> implements Sink<T> {
  private final LongAdder published = new LongAdder();

  CountingSink() {}

  /** Records counted by writers that have closed or passed a checkpoint. */
  public long count() {
    return published.sum();
  }

  @Override
  public SinkWriter<T> open(int worker, int workers) {
    return new SinkWriter<>() {
      private long count;

      @Override
      public void write(Record<T> record) {
        count++;
      }

      @Override
      public void checkpoint(long checkpointId) {
        publish();
      }

      @Override
      public void close() {
        publish();
      }

      private void publish() {
        published.add(count);
        count = 0;
      }
    };
  }

  @Override
  public String name() {
    return "counting";
  }
}
