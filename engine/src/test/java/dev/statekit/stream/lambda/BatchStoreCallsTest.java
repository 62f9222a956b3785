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
import java.util.Collection;
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
  private static final class Calls implements BatchStore {
    private final InMemoryBatchStore store;
    private final boolean waits;
    final Map<String, Boolean> threads = new ConcurrentHashMap<>();

    Calls(InMemoryBatchStore store, boolean waits) {
      this.store = store;
      this.waits = waits;
    }

    private void note() {
      threads.put(Thread.currentThread().getName(), true);
    }

    @Override
    public boolean callsWait() {
      return waits;
    }

    @Override
    public Map<String, KeyItem> readKeys(
        String pipeline, String operator, Collection<String> keys) {
      note();
      return store.readKeys(pipeline, operator, keys);
    }

    @Override
    public Set<String> writeKeys(String pipeline, String operator, List<KeyWrite> writes) {
      note();
      return store.writeKeys(pipeline, operator, writes);
    }

    @Override
    public List<SplitState> readSplits(String pipeline) {
      note();
      return store.readSplits(pipeline);
    }

    @Override
    public void putAttempt(String pipeline, String split, Attempt attempt, long expiresAt) {
      note();
      store.putAttempt(pipeline, split, attempt, expiresAt);
    }

    @Override
    public boolean putAttemptInOrder(
        String pipeline, String split, Attempt attempt, long expiresAt) {
      note();
      return store.putAttemptInOrder(pipeline, split, attempt, expiresAt);
    }

    @Override
    public List<Attempt> latestAttempts(String pipeline, String split, int limit) {
      note();
      return store.latestAttempts(pipeline, split, limit);
    }

    @Override
    public List<Attempt> attempts(String pipeline, String split, String from, String to) {
      note();
      return store.attempts(pipeline, split, from, to);
    }

    @Override
    public Map<String, byte[]> readReceipts(String pipeline, String split, Collection<String> ids) {
      note();
      return store.readReceipts(pipeline, split, ids);
    }

    @Override
    public void writeReceipts(
        String pipeline, String split, Map<String, byte[]> receipts, long expiresAt) {
      note();
      store.writeReceipts(pipeline, split, receipts, expiresAt);
    }

    @Override
    public boolean writeSplit(String pipeline, SplitState state) {
      note();
      return store.writeSplit(pipeline, state);
    }

    @Override
    public boolean deleteSplit(String pipeline, SplitState state) {
      note();
      return store.deleteSplit(pipeline, state);
    }

    @Override
    public void putTimers(String pipeline, List<TimerItem> timers) {
      note();
      store.putTimers(pipeline, timers);
    }

    @Override
    public List<TimerItem> timersDueBy(String pipeline, long time, int limit) {
      note();
      return store.timersDueBy(pipeline, time, limit);
    }

    @Override
    public void deleteTimers(String pipeline, Collection<String> ids) {
      note();
      store.deleteTimers(pipeline, ids);
    }
  }
}
