package dev.statekit.stream;

import dev.statekit.stream.state.CheckpointManifest;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.StoredState;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Kills a run at a chosen point: the n-th poll of the source, the n-th state or timer write (after
 * part of its items are written) or the n-th checkpoint store call (a part, or the completion,
 * before or after it is stored).
 */
final class Faults {
  /** The simulated crash. */
  static final class Crash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Crash(String where) {
      super("simulated crash " + where);
    }
  }

  enum Where {
    SOURCE,
    STATE_WRITE,
    CHECKPOINT_PART,
    CHECKPOINT_COMPLETE_BEFORE,
    CHECKPOINT_COMPLETE_AFTER,
    NONE
  }

  private final Random random;
  private volatile Where where = Where.NONE;
  private final AtomicInteger countdown = new AtomicInteger();

  Faults(long seed) {
    this.random = new Random(seed);
  }

  /** Arms one fault at a random point; returns where. */
  Where arm() {
    where = Where.values()[random.nextInt(Where.values().length - 1)];
    countdown.set(1 + random.nextInt(where == Where.SOURCE ? 60 : 6));
    return where;
  }

  void disarm() {
    where = Where.NONE;
  }

  private boolean hit(Where point) {
    return where == point && countdown.decrementAndGet() == 0;
  }

  <T> Source<T> source(Source<T> inner) {
    return new Source<>() {
      @Override
      public SourceReader<T> open(Map<String, String> positions) throws Exception {
        return open(0, 1, positions);
      }

      @Override
      public int maxReaders() {
        return inner.maxReaders();
      }

      @Override
      public SourceReader<T> open(int index, int readers, Map<String, String> positions)
          throws Exception {
        return crashing(inner.open(index, readers, positions));
      }
    };
  }

  private <T> SourceReader<T> crashing(SourceReader<T> reader) {
    return new SourceReader<>() {
      @Override
      public boolean poll(Consumer<Record<T>> out) throws Exception {
        if (hit(Where.SOURCE)) {
          throw new Crash("reading the source");
        }
        return reader.poll(out);
      }

      @Override
      public Map<String, String> positions() {
        return reader.positions();
      }
    };
  }

  StateTable table(StateTable inner) {
    return new StateTable() {
      @Override
      public Map<String, StoredState> read(String scope, Collection<String> keys) {
        return inner.read(scope, keys);
      }

      @Override
      public void write(String scope, List<StateWrite> writes) {
        if (hit(Where.STATE_WRITE)) {
          inner.write(scope, writes.subList(0, random.nextInt(writes.size() + 1)));
          throw new Crash("flushing state");
        }
        inner.write(scope, writes);
      }

      @Override
      public Map<String, byte[]> readCollection(String collection) {
        return inner.readCollection(collection);
      }

      @Override
      public void writeCollection(
          String collection, Map<String, byte[]> puts, Collection<String> deletes) {
        if (hit(Where.STATE_WRITE)) {
          // Part of the items are written before the crash.
          Map<String, byte[]> some = new java.util.HashMap<>();
          puts.entrySet().stream()
              .limit(random.nextInt(puts.size() + 1))
              .forEach(e -> some.put(e.getKey(), e.getValue()));
          inner.writeCollection(collection, some, List.of());
          throw new Crash("writing timers");
        }
        inner.writeCollection(collection, puts, deletes);
      }
    };
  }

  CheckpointStore store(CheckpointStore inner) {
    return new CheckpointStore() {
      @Override
      public long begin(String pipeline) {
        return inner.begin(pipeline);
      }

      @Override
      public void writePart(String pipeline, long id, String part, byte[] data) {
        if (hit(Where.CHECKPOINT_PART)) {
          throw new Crash("writing a checkpoint part");
        }
        inner.writePart(pipeline, id, part, data);
      }

      @Override
      public void complete(String pipeline, CheckpointManifest manifest) {
        if (hit(Where.CHECKPOINT_COMPLETE_BEFORE)) {
          throw new Crash("before completing a checkpoint");
        }
        inner.complete(pipeline, manifest);
        if (hit(Where.CHECKPOINT_COMPLETE_AFTER)) {
          throw new Crash("after completing a checkpoint");
        }
      }

      @Override
      public Optional<StoredCheckpoint> latest(String pipeline) {
        return inner.latest(pipeline);
      }

      @Override
      public long lastReserved(String pipeline) {
        return inner.lastReserved(pipeline);
      }
    };
  }
}
