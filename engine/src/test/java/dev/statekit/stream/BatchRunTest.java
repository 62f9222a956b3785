package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A stream processed as bounded batches, each run restoring the previous one's checkpoint and
 * ending with its own, gives the results of one run over the whole stream: open windows, timers,
 * watermarks and source positions carry over.
 */
class BatchRunTest {
  private static List<Record<Event>> stream() {
    Random random = new Random(7);
    List<Record<Event>> events = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      Event e = new Event("k" + random.nextInt(9), i * 3L + random.nextInt(30), 1);
      events.add(Record.of(e, e.time()));
    }
    return events;
  }

  private static Pipeline pipeline(List<Record<Event>> available, Sink<String> sink) {
    return Pipeline.from(Sources.fromRecords(available, 50))
        .withWatermarks(WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ofMillis(40)))
        .keyBy(Event::key, 2)
        .window(Windows.session(Duration.ofMillis(20)))
        .aggregate(
            AggregateFunction.count(),
            Serdes.longs(),
            (String key, TimeWindow w, Long n) -> key + w + "=" + n)
        .to(sink);
  }

  @Test
  void batchesInSequenceEqualOneRun() throws Exception {
    List<Record<Event>> all = stream();
    CollectingSink<String> once = Sinks.collecting();
    pipeline(all, once).run(RunOptions.named("once").build());

    StateBackend backend = StateBackend.inMemory();
    CheckpointStore store = CheckpointStore.inMemory();
    CollectingSink<String> batched = Sinks.collecting();
    for (int end = 1000; end <= all.size(); end += 1000) {
      PipelineResult result =
          pipeline(all.subList(0, end), batched)
              .run(
                  RunOptions.named("batches")
                      .stateBackend(backend)
                      .checkpointStore(store)
                      .fireWindowsAtEnd(end == all.size())
                      .build());
      assertEquals(1000, result.recordsRead(), "each run reads only its new records");
    }
    assertTrue(once.values().size() > 100, "sessions fired: " + once.values().size());
    assertEquals(
        once.values().stream().sorted().toList(), batched.values().stream().sorted().toList());
  }
}
