package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A keyed process function that declares no state: keying only partitions the records (each key's
 * records in order on one worker). It used to fail with "Register state specs before using keys".
 */
class StatelessKeyedProcessTest {
  record Item(int key, long index) {}

  @Test
  void aKeyedProcessWithoutStateSeesEveryRecordOnce() throws Exception {
    CollectingSink<Long> sink = Sinks.collecting();
    PipelineResult result =
        Pipeline.from(Sources.generate(5_000, i -> new Item((int) (i % 7), i), i -> i, 50))
            .keyBy(Item::key, 2)
            .process(
                (Record<Item> record, KeyedContext<Integer> context, Collector<Long> out) ->
                    out.collect(record.value().index() * 10 + context.key()))
            .to(sink)
            .run(
                RunOptions.named("stateless-keyed")
                    .parallelism(2)
                    .checkpointInterval(Duration.ofMillis(5))
                    .build());

    List<Long> out = sink.values().stream().sorted().toList();
    assertEquals(5_000, out.size(), "each record exactly once: " + result);
    for (int i = 0; i < out.size(); i++) {
      assertEquals(i * 10L + i % 7, out.get(i));
    }
  }
}
