package dev.statekit.stream;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.LongUnaryOperator;

/** Sources that replay from their positions: lists and generators. */
public final class Sources {
  /** Records handed out per poll when no batch size is given. */
  public static final int DEFAULT_BATCH = 1024;

  private Sources() {}

  /** The values of a list, in order, without timestamps. */
  public static <T> Source<T> fromList(List<T> values) {
    List<T> copy = List.copyOf(values);
    return generate(copy.size(), i -> copy.get((int) i), i -> Record.NO_TIMESTAMP, DEFAULT_BATCH);
  }

  /** The records of a list, in order (their positions are replaced by the list index). */
  public static <T> Source<T> fromRecords(List<Record<T>> records, int batchSize) {
    List<Record<T>> copy = List.copyOf(records);
    return new Replayable<>("records(" + copy.size() + ")", copy.size(), batchSize) {
      @Override
      Record<T> make(long i) {
        return copy.get((int) i).withPosition(SourcePosition.of(SPLIT, i));
      }
    };
  }

  /**
   * Records {@code 0 .. count-1} with the given values and event timestamps, {@code batchSize} per
   * poll. Polls end at multiples of the batch size, so a restored run polls (and emits watermarks)
   * at the same records as an uninterrupted one. The single split is named {@code "generator"}.
   */
  public static <T> Source<T> generate(
      long count, LongFunction<T> value, LongUnaryOperator timestamp, int batchSize) {
    return new Replayable<>("generate(" + count + ")", count, batchSize) {
      @Override
      Record<T> make(long i) {
        return Record.at(SPLIT, i, null, value.apply(i), timestamp.applyAsLong(i));
      }
    };
  }

  private static final String SPLIT = "generator";

  /** Records by index; the position is the index of the last record handed out. */
  private abstract static class Replayable<T> implements Source<T> {
    private final String name;
    private final long count;
    private final int batchSize;

    Replayable(String name, long count, int batchSize) {
      if (count < 0 || batchSize < 1) {
        throw new IllegalArgumentException(
            "count must be >= 0 and batchSize >= 1, got " + count + " and " + batchSize);
      }
      this.name = name;
      this.count = count;
      this.batchSize = batchSize;
    }

    abstract Record<T> make(long index);

    @Override
    public String name() {
      return name;
    }

    @Override
    public SourceReader<T> open(Map<String, String> positions) {
      String at = positions.get(SPLIT);
      long start = at == null ? 0 : Long.parseLong(at) + 1;
      return new SourceReader<>() {
        private long next = start;

        @Override
        public boolean poll(Consumer<Record<T>> out) {
          long end = Math.min(count, (next / batchSize + 1) * batchSize);
          for (; next < end; next++) {
            out.accept(make(next));
          }
          return next < count;
        }

        @Override
        public Map<String, String> positions() {
          return next == 0 ? Map.of() : Map.of(SPLIT, Long.toString(next - 1));
        }
      };
    }
  }
}
