package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class IdleTimeoutTest {
  /** Hands out a few records, then nothing, until stopped. */
  static final class TrickleSource implements Source<Event> {
    @Override
    public SourceReader<Event> open(Map<String, String> positions) {
      return new SourceReader<>() {
        private boolean sent;

        @Override
        public boolean poll(Consumer<Record<Event>> out) {
          if (!sent) {
            sent = true;
            out.accept(Record.of(new Event("a", 1_000, 1), 1_000));
            out.accept(Record.of(new Event("a", 1_050, 1), 1_050));
            out.accept(Record.of(new Event("b", 1_020, 1), 1_020));
          }
          return true;
        }

        @Override
        public Map<String, String> positions() {
          return Map.of();
        }
      };
    }
  }

  @Test
  void openWindowsFireWhenTheInputStops() throws Exception {
    List<String> fired = new CopyOnWriteArrayList<>();
    RunningPipeline running =
        Pipeline.from(new TrickleSource())
            .withWatermarks(
                WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(10))
                    .withIdleTimeout(Duration.ofMillis(50)))
            .keyBy(Event::key)
            .window(Windows.tumbling(Duration.ofMillis(100)))
            .aggregate(AggregateFunction.count())
            .to(Sinks.forEach(r -> fired.add(r.key() + "=" + r.value() + "@" + r.timestamp())))
            .start(RunOptions.named("idle").build());
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (fired.size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    // Both windows fired while the pipeline was still running, before any stop.
    assertEquals(List.of("a=2@1099", "b=1@1099"), fired.stream().sorted().toList());
    running.stop();
    running.await();
    assertEquals(2, fired.size());
  }

  /**
   * Two readers: reader 0 hands out three records, then nothing; reader 1 never hands out any.
   * Restored, reader 0 hands out a record of the window that fired before: late.
   */
  static final class OneEmptySplit implements Source<Event> {
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
      boolean restored = positions.containsKey("r0");
      return new SourceReader<>() {
        private boolean sent;

        @Override
        public boolean poll(Consumer<Record<Event>> out) {
          if (reader == 0 && !sent) {
            sent = true;
            if (restored) {
              out.accept(Record.of(new Event("a", 1_010, 1), 1_010));
            } else {
              out.accept(Record.of(new Event("a", 1_000, 1), 1_000));
              out.accept(Record.of(new Event("a", 1_050, 1), 1_050));
              out.accept(Record.of(new Event("b", 1_020, 1), 1_020));
            }
          }
          return true;
        }

        @Override
        public Map<String, String> positions() {
          return reader == 0 && sent ? Map.of("r0", restored ? "2" : "1") : Map.of();
        }
      };
    }
  }

  private static RunningPipeline startOneEmptySplit(
      List<String> fired, List<Event> late, RunOptions options) {
    return Pipeline.from(new OneEmptySplit())
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(10))
                .withIdleTimeout(Duration.ofMillis(50)))
        .keyBy(Event::key, 1)
        .window(Windows.tumbling(Duration.ofMillis(100)))
        .lateRecordsTo(Sinks.forEach(r -> late.add(r.value())))
        .aggregate(AggregateFunction.count())
        .to(Sinks.forEach(r -> fired.add(r.key() + "=" + r.value() + "@" + r.timestamp())))
        .start(options);
  }

  private static void awaitSize(List<?> list, int size) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (list.size() < size && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  /**
   * A run restored from a checkpoint taken after the empty reader's idleness let windows fire goes
   * on from the event time they fired at: a record of a fired window is late, as it would have been
   * without the restore. With the reader's idleness kept out of its checkpoint, the restored run
   * started from the empty reader's start watermark, took the record into the fired window and
   * fired that window a second time.
   */
  @Test
  void aRestoredRunGoesOnFromTheEventTimeItsIdleReaderLetWindowsFireAt() throws Exception {
    dev.statekit.stream.state.StateBackend backend =
        dev.statekit.stream.state.StateBackend.inMemory();
    dev.statekit.stream.state.CheckpointStore store =
        dev.statekit.stream.state.CheckpointStore.inMemory();
    RunOptions options =
        RunOptions.named("idle-restored")
            .parallelism(2)
            .stateBackend(backend)
            .checkpointStore(store)
            .build();
    List<String> fired = new CopyOnWriteArrayList<>();
    List<Event> late = new CopyOnWriteArrayList<>();
    RunningPipeline first = startOneEmptySplit(fired, late, options);
    awaitSize(fired, 2);
    first.stop();
    first.await();
    assertEquals(List.of("a=2@1099", "b=1@1099"), fired.stream().sorted().toList());

    RunningPipeline second = startOneEmptySplit(fired, late, options);
    awaitSize(late, 1);
    Thread.sleep(200); // idle timeouts pass: a window taken up again would fire now
    second.stop();
    second.await();
    assertEquals(List.of(new Event("a", 1_010, 1)), late);
    assertEquals(List.of("a=2@1099", "b=1@1099"), fired.stream().sorted().toList());
  }

  /**
   * A reader with nothing to hand out (an empty shard) has no event time to follow: it says it is
   * idle, and the worker takes the least watermark of the others. It held the least at its start
   * for ever, so no window fired while the pipeline ran.
   */
  @Test
  void aReaderThatNeverHandedOutARecordDoesNotHoldWindowsOpen() throws Exception {
    List<String> fired = new CopyOnWriteArrayList<>();
    RunningPipeline running =
        startOneEmptySplit(
            fired,
            new CopyOnWriteArrayList<>(),
            RunOptions.named("idle-empty-reader").parallelism(2).build());
    awaitSize(fired, 2);
    List<String> whileRunning = fired.stream().sorted().toList();
    running.stop();
    running.await();
    // The single-reader version of this (IdleTimeoutTest) fires both while running.
    assertEquals(List.of("a=2@1099", "b=1@1099"), whileRunning);
  }
}
