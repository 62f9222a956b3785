package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SourcesTest {
  private static final Source<Long> SOURCE = Sources.generate(103, i -> i, i -> i, 10);

  /** Reads {@code polls} polls of each reader (all when negative), in turns. */
  private static List<Long> read(
      int readers, Map<String, String> from, int polls, Map<String, String> at) throws Exception {
    List<Long> values = new ArrayList<>();
    for (int r = 0; r < readers; r++) {
      try (SourceReader<Long> reader = SOURCE.open(r, readers, from)) {
        boolean more = true;
        for (int p = 0; more && p != polls; p++) {
          more = reader.poll(record -> values.add(record.value()));
        }
        at.putAll(reader.positions());
      }
    }
    return values;
  }

  @Test
  void readersTogetherHandOutEveryRecordOnce() throws Exception {
    for (int readers : new int[] {1, 2, 3, 7, 20}) {
      List<Long> values = read(readers, Map.of(), -1, new HashMap<>());
      assertEquals(
          LongStream.range(0, 103).boxed().toList(),
          values.stream().sorted().toList(),
          "" + readers);
    }
  }

  @Test
  void readersResumeAfterTheirPositions() throws Exception {
    Map<String, String> at = new HashMap<>();
    List<Long> first = read(3, Map.of(), 2, at);
    assertEquals(60, first.size());
    List<Long> rest = read(3, at, -1, new HashMap<>());
    List<Long> all = new ArrayList<>(first);
    all.addAll(rest);
    assertEquals(LongStream.range(0, 103).boxed().toList(), all.stream().sorted().toList());
  }

  /**
   * Runs over an input that grows between them (each restoring the last's positions) hand out every
   * record once, whether a run's input ended at a batch's end or inside one: resuming at the next
   * batch skipped the rest of one that a run's input had cut short.
   */
  @Test
  void runsOverAGrowingInputHandOutEveryRecordOnce() throws Exception {
    for (int readers : new int[] {1, 2, 3}) {
      for (int step : new int[] {1, 3, 7, 10, 25}) {
        Map<String, String> at = new HashMap<>();
        List<Long> values = new ArrayList<>();
        for (int count = step; count < 103 + step; count += step) {
          Source<Long> grown = Sources.generate(Math.min(count, 103), i -> i, i -> i, 10);
          Map<String, String> from = new HashMap<>(at);
          for (int r = 0; r < readers; r++) {
            try (SourceReader<Long> reader = grown.open(r, readers, from)) {
              while (reader.poll(record -> values.add(record.value()))) {}
              at.putAll(reader.positions());
            }
          }
        }
        assertEquals(
            LongStream.range(0, 103).boxed().toList(),
            values.stream().sorted().toList(),
            readers + " readers, input growing by " + step);
      }
    }
  }

  /** The same through a pipeline's checkpoints: a list read, then read again grown. */
  @Test
  void aRestoredRunOverAGrownListReadsOnRightAfterItsLastRecord() throws Exception {
    dev.statekit.stream.state.StateBackend backend =
        dev.statekit.stream.state.StateBackend.inMemory();
    dev.statekit.stream.state.CheckpointStore store =
        dev.statekit.stream.state.CheckpointStore.inMemory();
    CollectingSink<String> out = Sinks.collecting();
    List<String> all = List.of("a", "b", "c", "d", "e");
    for (int end : new int[] {3, 5}) {
      Pipeline.from(Sources.fromList(all.subList(0, end)))
          .to(out)
          .run(RunOptions.named("growing").stateBackend(backend).checkpointStore(store).build());
    }
    assertEquals(all, out.values());
  }

  @Test
  void aReaderKeepsItsRestoredPositionUntilItReadsMore() throws Exception {
    Map<String, String> at = new HashMap<>();
    read(2, Map.of(), 2, at);
    for (int r = 0; r < 2; r++) {
      try (SourceReader<Long> reader = SOURCE.open(r, 2, at)) {
        String split = "generator-" + r + "-of-2";
        assertEquals(at.get(split), reader.positions().get(split));
      }
    }
  }

  @Test
  void positionsOfAnotherReaderCountAreRefused() throws Exception {
    Map<String, String> at = new HashMap<>();
    read(2, Map.of(), 1, at);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SOURCE.open(0, 3, at));
    assertTrue(e.getMessage().contains("run with the parallelism"), e.getMessage());
  }

  @Test
  void runsReadWithAsManyReadersAsTheParallelism() throws Exception {
    CollectingSink<Long> sink = Sinks.collecting();
    Pipeline pipeline = Pipeline.from(SOURCE).map(v -> v * 2).to(sink);
    RunOptions options = RunOptions.named("split").parallelism(3).build();
    assertEquals(3, pipeline.graph(options).stages().get(0).parallelism());
    PipelineResult result = pipeline.run(options);
    assertEquals(103, result.recordsRead());
    assertEquals(
        LongStream.range(0, 103).map(i -> i * 2).boxed().toList(),
        sink.values().stream().sorted().toList());
  }
}
