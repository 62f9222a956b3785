package dev.statekit.stream;

import dev.statekit.stream.internal.RecordParts;
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

  /**
   * The values of a list without timestamps, in order when read by one reader (several readers
   * split it as {@link #generate} does).
   */
  public static <T> Source<T> fromList(List<T> values) {
    List<T> copy = List.copyOf(values);
    return generate(copy.size(), i -> copy.get((int) i), i -> Record.NO_TIMESTAMP, DEFAULT_BATCH);
  }

  /**
   * The records of a list, in order when read by one reader (several readers split it as {@link
   * #generate} does); their positions are replaced by the list index.
   */
  public static <T> Source<T> fromRecords(List<Record<T>> records, int batchSize) {
    List<Record<T>> copy = List.copyOf(records);
    return new Replayable<>("records(" + copy.size() + ")", copy.size(), batchSize) {
      @Override
      Record<T> make(String split, long i) {
        return copy.get((int) i).withPosition(SourcePosition.of(split, i));
      }
    };
  }

  /**
   * Records {@code 0 .. count-1} with the given values and event timestamps, {@code batchSize} per
   * poll. Polls end at multiples of the batch size, so a restored run polls (and emits watermarks)
   * at the same records as an uninterrupted one. The source splits into as many readers as the
   * run's parallelism: reader {@code r} of {@code n} reads the batches {@code b} with {@code b % n
   * == r}, so readers move through the index (and time) side by side. With one reader the split is
   * named {@code "generator"}, else {@code "generator-<r>-of-<n>"}; a checkpoint resumes only with
   * the reader count that took it.
   */
  public static <T> Source<T> generate(
      long count, LongFunction<T> value, LongUnaryOperator timestamp, int batchSize) {
    return new Replayable<>("generate(" + count + ")", count, batchSize) {
      @Override
      Record<T> make(String split, long i) {
        return Record.at(split, i, null, value.apply(i), timestamp.applyAsLong(i));
      }

      @Override
      boolean makeParts(RecordParts out, String split, long i) {
        out.accept(split, i, value.apply(i), timestamp.applyAsLong(i));
        return true;
      }
    };
  }

  private static final String SPLIT = "generator";

  /** Records by index, in batches dealt out to the readers in turn. */
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

    abstract Record<T> make(String split, long index);

    /**
     * Hands record {@code index} to {@code out} as its parts, the same record {@link #make} makes;
     * false if this source's records have more than the parts carry (headers, textual offsets).
     */
    boolean makeParts(RecordParts out, String split, long index) {
      return false;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public int maxReaders() {
      return 1024;
    }

    @Override
    public SourceReader<T> open(Map<String, String> positions) {
      return open(0, 1, positions);
    }

    @Override
    public SourceReader<T> open(int reader, int readers, Map<String, String> positions) {
      String split = readers == 1 ? SPLIT : SPLIT + "-" + reader + "-of-" + readers;
      String layout = readers == 1 ? SPLIT : SPLIT + "-\\d+-of-" + readers;
      for (String stored : positions.keySet()) {
        if (!stored.matches(layout)) {
          throw new IllegalArgumentException(
              "The restored checkpoint of "
                  + name
                  + " holds split '"
                  + stored
                  + "', which a run with "
                  + readers
                  + " source readers does not have: run with the parallelism the checkpoint was"
                  + " taken with, or start the pipeline under a new name");
        }
      }
      String at = positions.get(split);
      long last = at == null ? -1 : Long.parseLong(at);
      return new Reader(split, resumeAt(reader, readers, last), readers, last);
    }

    /**
     * Where reader {@code reader} resumes after handing out record {@code last} (-1: none): right
     * after it, inside its batch, when the input the run had ended there (a later run over the
     * grown input reads the rest of that batch); else at the reader's next batch.
     */
    private long resumeAt(int reader, int readers, long last) {
      if (last < 0) {
        return (long) reader * batchSize;
      }
      if ((last + 1) % batchSize != 0) {
        return last + 1;
      }
      return (last / batchSize + readers) * batchSize;
    }

    private final class Reader implements SourceReader<T> {
      private final String split;
      private final long skip;
      private long next;
      private long last;

      Reader(String split, long start, int readers, long last) {
        this.split = split;
        this.next = start;
        this.last = last;
        this.skip = (long) batchSize * (readers - 1);
      }

      @Override
      public boolean poll(Consumer<Record<T>> out) {
        if (next >= count) {
          return false;
        }
        long end = Math.min(count, (next / batchSize + 1) * batchSize);
        long i = next;
        if (out instanceof RecordParts parts && i < end && makeParts(parts, split, i)) {
          for (i++; i < end; i++) {
            makeParts(parts, split, i);
          }
        }
        for (; i < end; i++) {
          out.accept(make(split, i));
        }
        last = end - 1;
        // The other readers' batches come between this reader's.
        next = end + skip;
        return next < count;
      }

      @Override
      public Map<String, String> positions() {
        return last < 0 ? Map.of() : Map.of(split, Long.toString(last));
      }
    }
  }
}
