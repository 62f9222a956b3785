package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Idle readers across a stop and a restore. A worker leaves an idle reader out of its least
 * watermark; so does the checkpoint (it recorded the least of every reader's, the idle reader's
 * MIN, and a restored run started every worker there: a window that fired before the checkpoint
 * took a record the uninterrupted run counted late, and fired a second time).
 */
class IdleReaderStopAndRestoreTest {
  /**
   * Reader 0 hands out {@code events} (resuming after its position), then polls slowly; reader 1
   * never hands out any, and is slow to give its positions at a checkpoint.
   */
  static final class GrowingWithEmptySplit implements Source<Event> {
    private final List<Event> events;

    GrowingWithEmptySplit(List<Event> events) {
      this.events = List.copyOf(events);
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
      String at = positions.get("r0");
      return new SourceReader<>() {
        private int next = at == null ? 0 : Integer.parseInt(at) + 1;

        @Override
        public boolean poll(Consumer<Record<Event>> out) {
          if (reader == 0) {
            if (next == events.size()) {
              // Nothing to hand out: wait a little, so reader 1 is the first to see a stop.
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            for (; next < events.size(); next++) {
              Event e = events.get(next);
              out.accept(Record.at("r0", next, null, e, e.time()));
            }
          }
          return true;
        }

        @Override
        public Map<String, String> positions() {
          if (reader == 1) {
            // Reader 1 injects its barriers late: at the last checkpoint, reader 0 (the last to see
            // a stop, so the one that triggers it) has ended its channel by the time they align.
            try {
              Thread.sleep(300);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return reader == 0 && next > 0 ? Map.of("r0", Integer.toString(next - 1)) : Map.of();
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
            RunOptions.named("idle-restore")
                .parallelism(2)
                .stateBackend(backend)
                .checkpointStore(store)
                .build());
  }

  private static void awaitUntil(java.util.function.BooleanSupplier done) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  private static List<String> ofA(List<String> fired) {
    return fired.stream().filter(s -> s.startsWith("a=")).toList();
  }

  @Test
  void aWindowThatFiredBeforeTheCheckpointDoesNotFireAgainAfterARestore() throws Exception {
    StateBackend backend = StateBackend.inMemory();
    CheckpointStore store = CheckpointStore.inMemory();
    List<String> fired = new CopyOnWriteArrayList<>();
    List<String> late = new CopyOnWriteArrayList<>();
    List<Event> first =
        List.of(new Event("a", 1_000, 1), new Event("a", 1_050, 1), new Event("b", 100_000, 1));

    // Run 1: reader 1 goes idle, the worker's watermark passes 99,989 and a's [1000, 1100) fires.
    RunningPipeline run1 = start(new GrowingWithEmptySplit(first), fired, late, backend, store);
    awaitUntil(() -> !fired.isEmpty());
    run1.stop();
    run1.await();
    assertEquals(List.of("a=2@1099"), ofA(fired), "run 1 fired");

    // Run 2, restored over the input grown by a@1010: behind the watermark the worker had, in the
    // window that already fired. As in an uninterrupted run it must be late, not fire the window
    // again.
    List<Event> grown = new java.util.ArrayList<>(first);
    grown.add(new Event("a", 1_010, 1));
    RunningPipeline run2 = start(new GrowingWithEmptySplit(grown), fired, late, backend, store);
    awaitUntil(() -> !late.isEmpty() || ofA(fired).size() > 1);
    Thread.sleep(500); // past run 2's idle timeout: a second firing would have come by now
    run2.stop();
    run2.await();
    assertEquals(List.of("a=2@1099"), ofA(fired), "a's window results over both runs");
    assertEquals(List.of("a@1010"), late, "late records");
  }

  /**
   * stop() ends each reader's channel: a worker takes an ended channel's watermark as MAX, and with
   * the other channel idle that is its least, so every open window fires with what it has so far
   * (without an idle reader a stop fires none). A window of an hour fires at a stop after a second.
   */
  @Test
  void aStopWithAnIdleReaderFiresNoWindow() throws Exception {
    List<String> fired = new CopyOnWriteArrayList<>();
    RunningPipeline running =
        Pipeline.from(new GrowingWithEmptySplit(List.of(new Event("a", 1_000, 1))))
            .withWatermarks(
                WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(10))
                    .withIdleTimeout(Duration.ofMillis(50)))
            .keyBy(Event::key, 1)
            .window(Windows.tumbling(Duration.ofHours(1)))
            .aggregate(AggregateFunction.count())
            .to(Sinks.forEach(r -> fired.add(r.key() + "=" + r.value() + "@" + r.timestamp())))
            .start(RunOptions.named("idle-stop").parallelism(2).build());
    Thread.sleep(500); // reader 1 said it is idle long ago
    running.stop();
    running.await();
    assertEquals(List.of(), fired, "windows fired by stop()");
  }
}
