package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A key written with a state TTL ({@code stateTtl}) may be deleted by DynamoDB's TTL and written
 * anew by another instance, its versions starting again at 1. {@code BatchEngine.writeKeys} knows
 * it ("such keys are read every time": it never caches what it wrote with an expiry), but {@code
 * BatchEngine.readKeys} caches every item it reads, expiry or not. A warm instance then runs a
 * batch on its stale cached copy, whose version happens to equal the re-created item's: the
 * conditional write succeeds, and what the other instance applied since is overwritten.
 *
 * <p>Invariant 1 (exactly once: each record changes state once) / "nothing lost".
 */
class CachedItemAfterTtlTest {
  private final ManualClock clock = new ManualClock(1_000_000);
  private final List<EgressRecord> delivered = new ArrayList<>();
  private final EgressSink results = delivered::addAll;
  private final TtlKeys store = new TtlKeys(new InMemoryBatchStore(clock), clock);
  private final StateSpec<ValueState<Long>> seen = StateSpec.value("seen", Serdes.longs());

  /** Each record of a key emits {@code key#n}, n its running count. */
  private BatchPipeline running(BatchFaultHook hook) {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .keyBy(key -> key)
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> state = context.state(seen);
                  long n = state.value() == null ? 1 : state.value() + 1;
                  state.update(n);
                  out.collect(record.value() + "#" + n);
                },
                seen)
            .to(EgressOutput.to(results, TypeName.of("test", "running"), Types.stringType()));
    return BatchPipeline.builder("running", pipeline)
        .store(store)
        .clock(clock)
        .stateTtl(Duration.ofMinutes(1))
        .faultHook(hook)
        .build();
  }

  private static SourceBatch batch(long firstSeq, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered("s1");
    for (int i = 0; i < records.length; i++) {
      batch.add(Long.toString(firstSeq + i), 0, records[i].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  private String last() {
    EgressRecord record = delivered.get(delivered.size() - 1);
    return Types.stringType().deserialize(record.value());
  }

  @Test
  void aCachedCopyOfAKeyDeletedByTtlAndWrittenAnewIsNotWrittenOver() {
    AtomicBoolean crash = new AtomicBoolean();
    BatchPipeline first =
        running(
            (step, detail) -> {
              if (step == BatchFaultHook.Step.LOADED && crash.getAndSet(false)) {
                throw new IllegalStateException("the invocation dies after reading its keys");
              }
            });
    BatchPipeline second = running(BatchFaultHook.NONE);

    first.process(batch(100, "a")); // a#1, item version 1 (expires in a minute)
    // Instance 1 reads "a" (version 1, count 1) for its next batch and dies: the read is cached.
    crash.set(true);
    assertThrows(IllegalStateException.class, () -> first.process(batch(101, "a", "a")));
    // Two minutes on, DynamoDB's TTL deletes "a"; Lambda's retry of the batch runs on instance 2,
    // which writes "a" anew: version 1 again, count 2.
    clock.advance(Duration.ofMinutes(2));
    store.expire();
    second.process(batch(101, "a", "a"));
    assertEquals("a#2", last());
    // The next batch runs on instance 1, whose cached copy says version 1, count 1.
    first.process(batch(103, "a"));
    assertEquals(
        "a#3",
        last(),
        "record 103 was applied on a stale cached copy of a key TTL deleted and another instance"
            + " wrote anew to the same version: what that instance applied was overwritten");
  }

  /**
   * The same without a state TTL: a key whose state is cleared is written with an expiry one
   * retention period out. Instance 1 wrote "a" (version 1, cached as written, no expiry); instance
   * 2 clears it (version 2, expiring); a day on, TTL deletes it, and instance 2 writes it anew
   * (version 1, count 2). Instance 1's copy, written a day before, must not pass for that item.
   */
  @Test
  void aCopyThisProcessWroteIsNotUsedOnceTheKeyMayHaveExpiredAndComeBack() {
    Pipeline pipeline =
        Pipeline.from(BatchSource.records())
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .keyBy(record -> record.substring(0, 1))
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> state = context.state(seen);
                  if (record.value().endsWith("!")) {
                    state.clear();
                    return;
                  }
                  long n = state.value() == null ? 1 : state.value() + 1;
                  state.update(n);
                  out.collect(record.value() + "#" + n);
                },
                seen)
            .to(EgressOutput.to(results, TypeName.of("test", "running"), Types.stringType()));
    BatchPipeline first =
        BatchPipeline.builder("clearing", pipeline).store(store).clock(clock).build();
    BatchPipeline second =
        BatchPipeline.builder("clearing", pipeline).store(store).clock(clock).build();

    first.process(batch(100, "a")); // a#1: version 1, no expiry, cached by instance 1
    second.process(batch(101, "a!")); // cleared: version 2, expires a day on
    clock.advance(Duration.ofDays(2));
    store.expire();
    second.process(batch(102, "a", "a")); // written anew: version 1, count 2
    assertEquals("a#2", last());
    first.process(batch(104, "a"));
    assertEquals("a#3", last(), "instance 1 wrote over the key with its two-day-old copy");
  }

  /**
   * The in-memory store, with its key items apart so that they can expire as DynamoDB's TTL deletes
   * them ({@link #expire}); a key written again after that starts at version 1, as an INSERT does.
   */
  private static final class TtlKeys extends ForwardingBatchStore {
    private record Stored(KeyItem item, long expiresAt) {}

    private final ManualClock clock;
    private final Map<String, Stored> keys = new HashMap<>();

    TtlKeys(InMemoryBatchStore rest, ManualClock clock) {
      super(rest);
      this.clock = clock;
    }

    synchronized void expire() {
      long now = clock.millis() / 1000;
      keys.values().removeIf(stored -> stored.expiresAt() > 0 && stored.expiresAt() < now);
    }

    @Override
    public synchronized Map<String, KeyItem> readKeys(
        String pipeline, String operator, Collection<String> encoded) {
      Map<String, KeyItem> found = new HashMap<>();
      for (String key : encoded) {
        Stored stored = keys.get(pipeline + "#" + operator + "#" + key);
        if (stored != null) {
          KeyItem item = stored.item();
          found.put(
              key,
              new KeyItem(
                  key,
                  item.version(),
                  item.state() == null ? null : item.state().clone(),
                  item.bookkeeping() == null ? null : item.bookkeeping().clone()));
        }
      }
      return found;
    }

    @Override
    public synchronized Set<String> writeKeys(
        String pipeline, String operator, List<KeyWrite> writes) {
      Set<String> conflicts = new java.util.HashSet<>();
      for (KeyWrite write : writes) {
        String scoped = pipeline + "#" + operator + "#" + write.key();
        Stored stored = keys.get(scoped);
        long version = stored == null ? 0 : stored.item().version();
        if (version != write.expectedVersion()) {
          conflicts.add(write.key());
        } else {
          keys.put(
              scoped,
              new Stored(
                  new KeyItem(write.key(), version + 1, write.state(), write.bookkeeping()),
                  write.expiresAt()));
        }
      }
      return conflicts;
    }
  }
}
