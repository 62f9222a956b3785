package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointManifest;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * When one task of a run fails, the run interrupts the others. A {@code process} step whose
 * function blocks (a call to a service, here a sleep) sees that interrupt as its own failure: the
 * record it was working on must not be dead-lettered (nor dropped) and then counted as done by a
 * checkpoint the surviving tasks complete, and the run must end with the failure instead of waiting
 * forever.
 *
 * <p>Schedule: one reader, one keyed worker running {@code process} with a dead-letter policy. The
 * worker is inside the function for record {@code x} when the reader passes the barrier of the
 * first checkpoint, acknowledges it and crashes on its next poll. The reference is a run without
 * the crash: every value reaches the sink, no dead letter.
 */
class InterruptedFunctionAcrossFailureTest {
  private static final List<String> VALUES = List.of("a", "b", "x", "c");

  private volatile boolean armed;
  private volatile boolean begun;
  private final CountDownLatch inside = new CountDownLatch(1);

  /** Hands out {@link #VALUES} in one poll; armed, it then crashes once a checkpoint began. */
  private final Source<String> source =
      new Source<>() {
        @Override
        public SourceReader<String> open(Map<String, String> positions) {
          int from = Integer.parseInt(positions.getOrDefault("values", "0"));
          return new SourceReader<>() {
            private int next = from;

            @Override
            public boolean poll(Consumer<Record<String>> out) throws Exception {
              if (next < VALUES.size()) {
                for (; next < VALUES.size(); next++) {
                  out.accept(Record.of(VALUES.get(next)));
                }
                return true;
              }
              if (!armed) {
                return false;
              }
              if (!begun) {
                Thread.sleep(1);
                return true;
              }
              // This reader acknowledged the checkpoint (it began it, then injected its barrier).
              inside.await();
              throw new Faults.Crash("reading the source");
            }

            @Override
            public Map<String, String> positions() {
              return Map.of("values", Integer.toString(next));
            }
          };
        }
      };

  private final CheckpointStore store =
      new CheckpointStore() {
        private final CheckpointStore inner = CheckpointStore.inMemory();

        @Override
        public long begin(String pipeline) {
          long id = inner.begin(pipeline);
          begun = true;
          return id;
        }

        @Override
        public void writePart(String pipeline, long id, String part, byte[] data) {
          inner.writePart(pipeline, id, part, data);
        }

        @Override
        public void complete(String pipeline, CheckpointManifest manifest) {
          inner.complete(pipeline, manifest);
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

  private Pipeline pipeline(Sink<String> out, Sink<DeadLetter<String>> dead) {
    return Pipeline.from(source)
        .keyBy(v -> v, 1)
        .reduce((a, b) -> b, Serdes.string())
        .process(
            "enrich",
            (Record<String> record, Collector<String> collector) -> {
              if (armed && record.value().equals("x")) {
                inside.countDown();
                Thread.sleep(30_000); // a slow call, cut short only by the run's interrupt
              }
              collector.collect(record.value().toUpperCase());
            },
            FailurePolicy.deadLetter(dead))
        .to(out);
  }

  private RunOptions options() {
    return RunOptions.named("interrupted")
        .parallelism(1)
        .stateBackend(StateBackend.inMemory())
        .checkpointStore(store)
        .checkpointInterval(Duration.ofMillis(1))
        .build();
  }

  @Test
  void aFunctionInterruptedByAnotherTasksFailureIsNotDeadLetteredAndTheRunFails() throws Exception {
    CollectingSink<String> out = Sinks.collecting();
    CollectingSink<DeadLetter<String>> dead = Sinks.collecting();
    armed = true;
    ExecutorService executor = Executors.newSingleThreadExecutor();
    String hung = null;
    try {
      Future<PipelineResult> crashed = executor.submit(() -> pipeline(out, dead).run(options()));
      try {
        crashed.get(10, TimeUnit.SECONDS);
        fail("the run with a crashed reader succeeded");
      } catch (ExecutionException expected) {
        assertTrue(
            expected.getCause() instanceof PipelineFailedException, expected.getCause().toString());
      } catch (TimeoutException e) {
        hung = "the run never ended after its reader crashed (waited 10 s)";
      }
    } finally {
      executor.shutdownNow();
    }

    armed = false;
    pipeline(out, dead).run(options());
    assertEquals(
        List.of(),
        dead.values().stream().map(d -> d.record().value() + ": " + d.error()).toList(),
        "dead letters after the restore");
    assertEquals(List.of("A", "B", "C", "X"), out.values().stream().sorted().toList());
    assertNull(hung);
  }
}
