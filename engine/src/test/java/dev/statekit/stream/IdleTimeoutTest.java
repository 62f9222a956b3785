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

  /** Two readers: reader 0 hands out three records, then nothing; reader 1 never hands out any. */
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
      return new SourceReader<>() {
        private boolean sent;

        @Override
        public boolean poll(Consumer<Record<Event>> out) {
          if (reader == 0 && !sent) {
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

  /**
   * A reader with nothing to hand out (an empty shard) has no event time to follow: it says it is
   * idle, and the worker takes the least watermark of the others. It held the least at its start
   * for ever, so no window fired while the pipeline ran.
   */
  @Test
  void aReaderThatNeverHandedOutARecordDoesNotHoldWindowsOpen() throws Exception {
    List<String> fired = new CopyOnWriteArrayList<>();
    RunningPipeline running =
        Pipeline.from(new OneEmptySplit())
            .withWatermarks(
                WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(10))
                    .withIdleTimeout(Duration.ofMillis(50)))
            .keyBy(Event::key, 1)
            .window(Windows.tumbling(Duration.ofMillis(100)))
            .aggregate(AggregateFunction.count())
            .to(Sinks.forEach(r -> fired.add(r.key() + "=" + r.value() + "@" + r.timestamp())))
            .start(RunOptions.named("idle-empty-reader").parallelism(2).build());
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (fired.size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    List<String> whileRunning = fired.stream().sorted().toList();
    running.stop();
    running.await();
    // The single-reader version of this (IdleTimeoutTest) fires both while running.
    assertEquals(List.of("a=2@1099", "b=1@1099"), whileRunning);
  }
}
