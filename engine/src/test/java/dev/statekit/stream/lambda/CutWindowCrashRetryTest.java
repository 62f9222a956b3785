package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.Deadline;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A shard's batch cut in its keyed pass fires the windows the records it took close, delivers them,
 * and dies before its checkpoint (Lambda's timeout during the checkpoint write, an environment
 * lost). Lambda hands the same batch over again whole; this try has the time to take it all. The
 * key's mark says it applied the records before the cut, but the split's lateness is still the old
 * checkpoint's, so a record after the cut that belongs to a window the first try fired is taken as
 * on time: the window fires again, under the same id, with another value. Before the cut every try
 * of a batch applied all its records before firing, so every firing of a window agreed.
 *
 * <p>Schedule: one key, tumbling windows of 1 s, no out-of-orderness; records at event times 100,
 * 5000 (slow: the keyed pass stops after it), 200, 7000. Try 1: a 300 ms deadline, cut before 200,
 * dies at {@code DELIVERED}. Try 2: the whole batch, no deadline. Expected: each window id
 * delivered with one value. Before the fix try 1 fired [0, 1000) with a count of 1 and try 2 fired
 * it again with 2; a cut try now fires no window its own records made due.
 */
class CutWindowCrashRetryTest {
  private static final String SHARD = "clicks/shardId-000000000000";

  @Test
  void aWindowFiredByACutTryThatDiedIsNotFiredAgainWithAnotherValue() {
    Map<String, Set<String>> delivered = new LinkedHashMap<>();
    AtomicBoolean crash = new AtomicBoolean(true);
    BatchPipeline pipeline =
        BatchPipeline.builder(
                "cut-windows",
                Pipeline.from(BatchSource.records())
                    .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
                    .withWatermarks(
                        WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ZERO)
                            .withTimestamps(text -> Long.parseLong(text.split(":")[1])))
                    .keyBy(text -> text.split(":")[0])
                    .window(Windows.tumbling(Duration.ofSeconds(1)))
                    .aggregate(
                        new SlowCountAt("k:5000"),
                        Serdes.longs(),
                        (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "=" + n)
                    .to(
                        EgressOutput.to(
                            records ->
                                records.forEach(
                                    r ->
                                        delivered
                                            .computeIfAbsent(r.id(), id -> new LinkedHashSet<>())
                                            .add(r.textOrBase64())),
                            TypeName.of("test", "counts"),
                            Types.stringType())))
            .store(new InMemoryBatchStore())
            .faultHook(
                (step, detail) -> {
                  if (step == BatchFaultHook.Step.DELIVERED && crash.getAndSet(false)) {
                    throw new IllegalStateException("the invocation died before its checkpoint");
                  }
                })
            .build();
    SourceBatch batch = batch("k:100", "k:5000", "k:200", "k:7000");

    assertThrows(
        RuntimeException.class,
        () -> pipeline.process(batch, Deadline.after(Duration.ofMillis(300))));
    Map<String, Set<String>> firstTry = new LinkedHashMap<>();
    delivered.forEach((id, values) -> firstTry.put(id, new LinkedHashSet<>(values)));
    assertEquals(
        Map.of(),
        firstTry,
        "the first try, cut after 5000, fires no window its own records made due: " + firstTry);

    BatchResult retry = pipeline.process(batch);
    assertEquals(java.util.List.of(), retry.failedOffsets(), retry.toString());

    delivered.forEach(
        (id, values) ->
            assertEquals(
                1,
                values.size(),
                "window result "
                    + id
                    + " was delivered with "
                    + values
                    + ": the retry counted 200 into the window the first try had fired and"
                    + " delivered without it ("
                    + retry
                    + ")"));
    assertTrue(
        delivered.values().stream().anyMatch(values -> values.contains("k@0=2")),
        "the whole retry fires [0, 1000) with both its records: " + delivered);
  }

  private static SourceBatch batch(String... values) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    long sequence = 1000;
    for (String value : values) {
      batch.add(Long.toString(sequence++), 0, value.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }
}
