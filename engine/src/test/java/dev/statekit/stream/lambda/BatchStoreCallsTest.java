package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Where a pipeline runs its store's calls: on threads only if they wait on I/O. */
class BatchStoreCallsTest {
  private final CollectingEgressSink results = new CollectingEgressSink();

  @Test
  void theInMemoryStoresCallsRunOnTheInvokingThread() {
    assertFalse(new InMemoryBatchStore().callsWait());
    Set<String> threads = run(false);
    assertEquals(Set.of(Thread.currentThread().getName()), threads);
    assertEquals(List.of("a@0=2", "b@0=1"), results.texts().stream().sorted().toList());
  }

  @Test
  void aStoreWhoseCallsWaitHasThemRunOnThreads() {
    Set<String> threads = run(true);
    assertTrue(
        threads.stream().anyMatch(name -> name.startsWith("statekit-batch-")),
        "no call on the pipeline's threads: " + threads);
    assertEquals(List.of("a@0=2", "b@0=1"), results.texts().stream().sorted().toList());
  }

  private Set<String> run(boolean waits) {
    Calls store = new Calls(new InMemoryBatchStore(), waits);
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
            .withWatermarks(
                WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ZERO)
                    .withTimestamps(parts -> Long.parseLong(parts[1])))
            .keyBy(parts -> parts[0])
            .window(Windows.tumbling(Duration.ofMillis(10)))
            .aggregate(
                AggregateFunction.<String[]>count(),
                Serdes.longs(),
                (String key, dev.statekit.stream.TimeWindow w, Long n) ->
                    key + "@" + w.start() + "=" + n)
            .to(EgressOutput.to(results, TypeName.of("test", "counts"), Types.stringType()));
    BatchPipeline counts =
        BatchPipeline.builder("counts", pipeline)
            .store(store)
            .clock(new ManualClock(1_000_000))
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    assertTrue(counts.process(batch(100, "a,1", "a,5", "b,3")).succeeded());
    assertTrue(counts.process(batch(103, "a,12")).succeeded());
    return store.threads.keySet();
  }

  private static SourceBatch batch(long firstSeq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered("s1");
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(firstSeq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** The in-memory store, noting the thread of every call. */
  private static final class Calls extends ForwardingBatchStore {
    private final boolean waits;
    final Map<String, Boolean> threads = new ConcurrentHashMap<>();

    Calls(InMemoryBatchStore store, boolean waits) {
      super(store);
      this.waits = waits;
    }

    @Override
    void before() {
      threads.put(Thread.currentThread().getName(), true);
    }

    @Override
    public boolean callsWait() {
      return waits;
    }
  }
}
