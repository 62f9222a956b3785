package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Invariant 1 (each window result is produced once) across a restore, at parallelism 2 with an idle
 * reader that wakes up.
 *
 * <p>Schedule: reader 1 has no records and goes idle; reader 0's watermark passes 1,099, so the
 * worker fires a's window [1000, 1100). Then reader 1 hands out its first record (c@500, late): its
 * watermark (489) is behind the worker's, which stays at ~99,989 (monotonic). The checkpoint taken
 * now records the least watermark of the active readers, 489, not what the workers had reached. A
 * run restored from it starts its windows at 489: a@1010 from reader 1, which the uninterrupted run
 * counts late (its window already fired), opens a's window [1000, 1100) again and it fires a second
 * time.
 *
 * <p>Root cause: CheckpointCoordinator.ackSource/Pending.watermark() takes the readers' least
 * watermark; a worker's watermark is monotonic and can be ahead of it after an idle reader wakes.
 */
class IdleReaderWakesAcrossRestoreTest {
  /** Reader 0 hands out {@code r0}; reader 1 hands out {@code r1} once {@code gate} is open. */
  static final class TwoReaders implements Source<Event> {
    private final List<Event> r0;
    private final List<Event> r1;
    private final BooleanSupplier gate;

    TwoReaders(List<Event> r0, List<Event> r1, BooleanSupplier gate) {
      this.r0 = List.copyOf(r0);
      this.r1 = List.copyOf(r1);
      this.gate = gate;
    }

    @Override
    public int maxReaders() {
      return 2;
    }

    @Override
    public SourceReader<Event> open(Map<String, String> positions) {
      return open(0, 1, positions);
    }

    @Override
    public SourceReader<Event> open(int reader, int readers, Map<String, String> positions) {
      String split = "r" + reader;
      List<Event> events = reader == 0 ? r0 : r1;
      String at = positions.get(split);
      return new SourceReader<>() {
        private int next = at == null ? 0 : Integer.parseInt(at) + 1;

        @Override
        public boolean poll(Consumer<Record<Event>> out) {
          if (reader == 1 && !gate.getAsBoolean()) {
            return true;
          }
          for (; next < events.size(); next++) {
            Event e = events.get(next);
            out.accept(Record.at(split, next, null, e, e.time()));
          }
          return true;
        }

        @Override
        public Map<String, String> positions() {
          return next > 0 ? Map.of(split, Integer.toString(next - 1)) : Map.of();
        }
      };
    }
  }

  private static RunningPipeline start(
      Source<Event> source,
      List<String> fired,
      List<String> late,
      StateBackend backend,
      CheckpointStore store) {
    return Pipeline.from(source)
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(10))
                .withIdleTimeout(Duration.ofMillis(300)))
        .keyBy(Event::key, 1)
        .window(Windows.tumbling(Duration.ofMillis(100)))
        .lateRecordsTo(Sinks.forEach(r -> late.add(r.value().key() + "@" + r.value().time())))
        .aggregate(AggregateFunction.count())
        .to(Sinks.forEach(r -> fired.add(r.key() + "=" + r.value() + "@" + r.timestamp())))
        .start(
            RunOptions.named("idle-wakes")
                .parallelism(2)
                .checkpointInterval(Duration.ofMillis(50))
                .stateBackend(backend)
                .checkpointStore(store)
                .build());
  }

  private static void awaitUntil(BooleanSupplier done) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  private static List<String> ofA(List<String> fired) {
    return fired.stream().filter(s -> s.startsWith("a=")).toList();
  }

  @Test
  void aWindowThatFiredDoesNotFireAgainAfterAnIdleReaderWokeAndTheRunRestored() throws Exception {
    StateBackend backend = StateBackend.inMemory();
    CheckpointStore store = CheckpointStore.inMemory();
    List<String> fired = new CopyOnWriteArrayList<>();
    List<String> late = new CopyOnWriteArrayList<>();
    List<Event> r0 =
        List.of(new Event("a", 1_000, 1), new Event("a", 1_050, 1), new Event("b", 100_000, 1));

    // Run 1: reader 1 idle, a's window fires; then reader 1 wakes with c@500 (late).
    RunningPipeline run1 =
        start(
            new TwoReaders(r0, List.of(new Event("c", 500, 1)), () -> !fired.isEmpty()),
            fired,
            late,
            backend,
            store);
    awaitUntil(() -> !late.isEmpty());
    Thread.sleep(300); // a few checkpoints after reader 1 woke
    run1.stop();
    run1.await();
    assertEquals(List.of("a=2@1099"), ofA(fired), "run 1 fired");
    assertEquals(List.of("c@500"), late, "run 1 late");

    // Run 2, restored, reader 1's input grown by a@1010: behind the watermark the worker had
    // reached, in a window that already fired. As in an uninterrupted run it must be late.
    List<Event> r1 = new ArrayList<>(List.of(new Event("c", 500, 1), new Event("a", 1_010, 1)));
    RunningPipeline run2 = start(new TwoReaders(r0, r1, () -> true), fired, late, backend, store);
    awaitUntil(() -> late.size() > 1 || ofA(fired).size() > 1);
    Thread.sleep(800); // past run 2's idle timeout: a second firing would have come by now
    run2.stop();
    run2.await();
    assertEquals(List.of("a=2@1099"), ofA(fired), "a's window results over both runs");
    assertEquals(List.of("c@500", "a@1010"), late, "late records");
  }
}
