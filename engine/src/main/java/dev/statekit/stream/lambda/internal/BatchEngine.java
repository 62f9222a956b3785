package dev.statekit.stream.lambda.internal;

import dev.statekit.Deadline;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.Attempt;
import dev.statekit.stream.lambda.BatchFaultHook;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.TickResult;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs one pipeline batch by batch ({@link BatchFlow}) and tick by tick ({@link TickFlow}): what
 * both share, built once per pipeline. Thread-safe: batches of different splits may run at once.
 */
public final class BatchEngine {
  final String name;
  final PlanShape shape;
  final BatchSettings settings;
  private final OutputDelivery outputs;
  final TimerCodec codec;
  private final ItemCache cache;
  private final DecodedItems decoded;

  /** Messages of unordered splits whose receipts this process wrote: their keys' entries can go. */
  private final Set<String> confirmed =
      java.util.Collections.newSetFromMap(
          new java.util.LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > CONFIRMED;
            }
          });

  private static final int CONFIRMED = 100_000;

  /**
   * The engine of {@code pipeline}.
   *
   * @throws IllegalArgumentException if the pipeline cannot run batch by batch (says why)
   */
  public BatchEngine(String name, Pipeline pipeline, BatchSettings settings) {
    this.name = name;
    this.shape = new PlanShape(pipeline, settings.refusedOutputs());
    this.settings = settings;
    this.outputs = new OutputDelivery(settings.refusedOutputs());
    this.codec = shape.hasKeyedStage() ? new TimerCodec(shape.keySerde()) : null;
    long leastExpiryMs =
        settings.stateTtlSeconds() > 0
            ? Math.min(settings.retentionMs(), settings.stateTtlSeconds() * 1000)
            : settings.retentionMs();
    // Half of it: expiries are written in whole seconds, by other processes' clocks.
    this.cache = new ItemCache(settings.maxCachedKeys(), leastExpiryMs / 2, settings.clock());
    this.decoded = new DecodedItems(settings.maxCachedKeys());
  }

  /** Processes one batch, with no deadline. */
  public BatchResult process(SourceBatch batch) throws Exception {
    return process(batch, Deadline.none());
  }

  /**
   * Processes one batch in an invocation to be answered by {@code deadline}: it stops taking
   * records while a reserve of its time is left ({@link BatchDeadline}), and answers those it did
   * not take as failed.
   */
  public BatchResult process(SourceBatch batch, Deadline deadline) throws Exception {
    return new BatchFlow(this, batch, null, BatchDeadline.startingNow(deadline)).run();
  }

  /** Every range given up and not replayed yet, each split's in the order of its records. */
  public List<GivenUp> givenUp() {
    List<GivenUp> all = new ArrayList<>(new Progress(store().readSplits(name), 0, 0).givenUp());
    all.sort(
        java.util.Comparator.comparing(GivenUp::split)
            .thenComparing(
                GivenUp::after,
                java.util.Comparator.nullsFirst(
                    dev.statekit.stream.SourcePosition::compareOffsets)));
    return all;
  }

  /**
   * Replays the records of given-up range {@code range}: each is applied to the keys that had not
   * applied it, its outputs delivered, and the range is then closed.
   *
   * @throws IllegalArgumentException if the range is not open, or the batch holds other records
   */
  public BatchResult replay(GivenUp range, SourceBatch batch) throws Exception {
    if (!batch.ordered() || !batch.split().equals(range.split())) {
      throw new IllegalArgumentException(
          batch
              + " does not replay "
              + range
              + ": replay exactly the records after its 'after' and before its 'before', as one"
              + " ordered batch of its split");
    }
    for (var record : batch.records()) {
      if (!batch.ordered()
          || !batch.split().equals(range.split())
          || !range.covers(record.position().offset())) {
        throw new IllegalArgumentException(
            "Record "
                + record.position()
                + " is not in "
                + range
                + ": replay exactly the records after its 'after' and before its 'before', as one"
                + " ordered batch of its split");
      }
    }
    Progress progress = new Progress(store().readSplits(name), settings.clock().millis(), 0);
    SplitState state = progress.split(range.split());
    if (!state.givenUp().contains(range)) {
      GivenUp recorded = record(progress, state, range);
      if (!java.util.Objects.equals(recorded.after(), range.after())) {
        throw new IllegalArgumentException(
            "The records of "
                + range.split()
                + " after "
                + recorded.after()
                + " and before "
                + recorded.before()
                + " were all given up before any attempt reached the table; they are listed in"
                + " givenUp() as one range: replay that range, with all its records");
      }
      range = recorded;
    }
    GivenUp before = ShardFence.openBefore(state, range);
    if (before != null) {
      throw new IllegalArgumentException(
          "Replay "
              + before
              + " first: it lies between the checkpoint of "
              + range.split()
              + " ("
              + (state.position() == null ? "its start" : state.position())
              + ") and "
              + range
              + ", and the checkpoint moves past the ranges in the order of their records; the"
              + " range stays open until then");
    }
    return new BatchFlow(this, batch, range, BatchDeadline.NONE).run();
  }

  /**
   * Records a range the on-failure destination named and the pipeline did not list, after checking
   * that no invocation applied anything of it; then it is replayed like any other.
   */
  private GivenUp record(Progress progress, SplitState state, GivenUp range) {
    for (GivenUp open : state.givenUp()) {
      if (open.overlaps(range)) {
        throw new IllegalArgumentException(
            "Records of "
                + range
                + " are in "
                + open
                + ", which the pipeline lists as given up: replay that range (givenUp())");
      }
    }
    if (range.attempted() != null) {
      throw new IllegalArgumentException(
          "Range "
              + range
              + " is not given up and open ("
              + state.givenUp()
              + "): it was replayed already, or belongs to another pipeline; for a range only the"
              + " on-failure destination names, pass GivenUp.onFailure(shard, first, last)");
    }
    String first = new java.math.BigInteger(range.after()).add(java.math.BigInteger.ONE).toString();
    String last =
        new java.math.BigInteger(range.before()).subtract(java.math.BigInteger.ONE).toString();
    // The on-failure destination names a batch only once Lambda has given up on it: what tells
    // whether an invocation applied any of it is whether one recorded an attempt.
    if (!store().attempts(name, range.split(), first, last).isEmpty()) {
      boolean behind =
          state.position() != null
              && dev.statekit.stream.SourcePosition.compareOffsets(state.position(), last) >= 0;
      throw new IllegalArgumentException(
          behind
              ? "An invocation attempted the records "
                  + first
                  + " to "
                  + last
                  + " of "
                  + range.split()
                  + " and the shard's checkpoint is past them without listing them as given up:"
                  + " they were applied and delivered (the batch failed after its checkpoint)."
                  + " Nothing to replay"
              : "An invocation attempted the records "
                  + first
                  + " to "
                  + last
                  + " of "
                  + range.split()
                  + ": the pipeline lists them in givenUp() once the shard's next batch comes, or"
                  + " within two batch timeouts and five minutes; replay that range then");
    }
    for (Attempt attempt : store().latestAttempts(name, range.split(), BatchFlow.RECENT_ATTEMPTS)) {
      boolean beyond = ShardFence.beyond(attempt, state.position());
      if (beyond && state.givenUp().stream().noneMatch(g -> g.covers(attempt.last()))) {
        throw new IllegalArgumentException(
            "A batch of "
                + range.split()
                + " from "
                + attempt.first()
                + " was attempted beyond its checkpoint and is not listed yet: the pipeline lists"
                + " the range it belongs to in givenUp() once the shard's next batch comes, or"
                + " within two batch timeouts and five minutes; replay that range then");
      }
    }
    // With no attempt beyond the checkpoint, everything between it and these records was given up
    // unattempted too (the on-failure destination names those batches): one range holds them all.
    String after = range.after();
    String noticed = ShardFence.noticedThrough(state);
    if (noticed == null || dev.statekit.stream.SourcePosition.compareOffsets(noticed, after) < 0) {
      after = noticed;
    }
    long now = settings.clock().millis();
    GivenUp recorded =
        new GivenUp(
            range.split(),
            after,
            range.before(),
            progress.pipelineWatermark(null, Long.MIN_VALUE),
            now,
            null);
    for (int round = 0; ; round++) {
      SplitState current = new Progress(store().readSplits(name), now, 0).split(range.split());
      if (current.givenUp().stream().anyMatch(g -> g.overlaps(recorded))) {
        return current.givenUp().stream().filter(g -> g.overlaps(recorded)).findFirst().get();
      }
      List<GivenUp> givenUp = new ArrayList<>(current.givenUp());
      givenUp.add(recorded);
      SplitState next = current.nextWithGivenUp(givenUp);
      if (store().writeSplit(name, next)) {
        return recorded;
      }
      if (round > 10) {
        throw new dev.statekit.stream.state.StateStoreException(
            dev.statekit.StateKitException.Reason.CONFLICT,
            "The checkpoint of " + range.split() + " kept changing; replay again");
      }
    }
  }

  /** Advances idle splits and fires due windows. */
  public TickResult tick() throws Exception {
    return new TickFlow(this).run();
  }

  /**
   * Records splits the pipeline has not seen yet, so that no window fires before their first batch
   * (or their idle timeout); their records are late against the windows that may have fired before
   * ({@link #joinWatermark}).
   *
   * @return the splits added
   */
  public List<String> registerSplits(Collection<String> splits) {
    List<SplitState> read = store().readSplits(name);
    Set<String> known = new HashSet<>();
    read.forEach(split -> known.add(split.split()));
    long now = settings.clock().millis();
    List<String> added = new ArrayList<>();
    Long joins = null;
    for (String split : new TreeSet<>(splits)) {
      if (known.contains(split)) {
        continue;
      }
      if (joins == null) {
        joins = joinWatermark(read);
      }
      SplitState fresh = SplitState.fresh(split);
      SplitState registered =
          new SplitState(
              split,
              1,
              null,
              null,
              List.of(),
              joins,
              fresh.fireWatermark(),
              fresh.candidate(),
              0,
              now,
              fresh.firedThrough(),
              List.of());
      if (store().writeSplit(name, registered)) {
        added.add(split);
      }
    }
    return added;
  }

  /**
   * The event time a split joins at, registered or first seen in a batch: windows ending at or
   * before it may have been delivered, so its records are late against them. A window fires at most
   * at the least of the splits' watermarks, each split counted at what its batch in flight reaches
   * too (an attempt beyond its checkpoint): such a batch fires the windows up to its own records'
   * watermark before it checkpoints, and may deliver them and die, to be retried after the new
   * split holds the pipeline back, or given up. Ranges given up do not count: the windows they hold
   * may have fired before the pipeline noticed them. One query of attempts per split, only when a
   * split joins (a reshard).
   */
  long joinWatermark(List<SplitState> splits) {
    long least = Long.MAX_VALUE;
    for (SplitState split : splits) {
      if (split.isTick()) {
        continue;
      }
      long may = Math.max(split.fireWatermark(), Progress.lateness(split));
      for (Attempt attempt :
          store().latestAttempts(name, split.split(), BatchFlow.RECENT_ATTEMPTS)) {
        if (ShardFence.beyond(attempt, split.position())) {
          may = Math.max(may, attempt.watermark());
        }
      }
      least = Math.min(least, may);
    }
    long fired = new Progress(splits, 0, 0).firedThrough();
    return least == Long.MAX_VALUE ? fired : Math.max(fired, least);
  }

  BatchStore store() {
    return settings.store();
  }

  void reached(BatchFaultHook.Step step, String detail) {
    settings.hook().reached(step, detail);
  }

  /** Keys' items as this process wrote them, decoded. */
  DecodedItems decoded() {
    return decoded;
  }

  /** Runs the calls (at once, as the settings' concurrency does) and waits for all. */
  /** Outputs to deliver, none yet. */
  Deliveries deliveries() {
    return new Deliveries(shape.routes(), outputs);
  }

  void together(List<Runnable> calls) {
    if (calls.size() == 1) {
      calls.get(0).run();
    } else if (!calls.isEmpty()) {
      settings.concurrency().runAll(calls);
    }
  }

  /** Records that the receipts of these messages were written. */
  void confirmed(String split, Collection<String> ids) {
    synchronized (confirmed) {
      ids.forEach(id -> confirmed.add(split + "\n" + id));
    }
  }

  boolean isConfirmed(String split, String id) {
    synchronized (confirmed) {
      return confirmed.contains(split + "\n" + id);
    }
  }

  /**
   * Items of keys: from this process's cache (the items it wrote) where it has them, unless {@code
   * fresh}.
   */
  Map<String, KeyItem> readKeys(Collection<String> keys, boolean fresh) {
    Map<String, KeyItem> items = new HashMap<>(Sized.capacity(keys.size()));
    List<String> missing = new ArrayList<>();
    for (String key : keys instanceof Set<String> distinct ? distinct : new HashSet<>(keys)) {
      KeyItem cached = fresh ? null : cache.get(key);
      if (cached != null) {
        items.put(key, cached);
      } else {
        missing.add(key);
      }
    }
    if (!missing.isEmpty()) {
      // Only what this process writes is cached, never what it reads: a read item may carry an
      // expiry (DynamoDB's TTL deletes it, and a later write starts again at version 1, so a
      // copy of it would pass for that newer item), and a read racing this process's own write
      // would put an older version back.
      items.putAll(store().readKeys(name, shape.keyedOperator(), missing));
    }
    return items;
  }

  /**
   * Writes the keys' items, each on the version it read. The fault hook may stop some writes (a
   * crash in the middle of the flush): the others are written, then its failure is thrown.
   *
   * @return the keys whose write conflicted
   */
  Set<String> writeKeys(Collection<KeyWork> works) {
    List<KeyWrite> writes = new ArrayList<>();
    List<KeyWork> writing = new ArrayList<>();
    RuntimeException stopped = null;
    for (KeyWork work : works) {
      if (work.write == null) {
        continue;
      }
      try {
        reached(BatchFaultHook.Step.KEY_WRITE, work.encoded);
        writes.add(work.write);
        writing.add(work);
      } catch (RuntimeException e) {
        stopped = stopped == null ? e : stopped;
      }
    }
    Set<String> conflicts =
        writes.isEmpty() ? Set.of() : store().writeKeys(name, shape.keyedOperator(), writes);
    for (KeyWork work : writing) {
      KeyWrite write = work.write;
      if (conflicts.contains(write.key()) || write.expiresAt() > 0) {
        // An item DynamoDB's TTL may delete starts again at version 1 when written anew, so a
        // cached copy could match a newer item's version: such keys are read every time.
        cache.remove(write.key());
        decoded.remove(write.key());
      } else {
        long version = write.expectedVersion() + 1;
        cache.put(new KeyItem(write.key(), version, write.state(), write.bookkeeping()));
        decoded.put(
            write.key(), version, write.state(), work.decoded, write.bookkeeping(), work.book);
      }
    }
    if (stopped != null) {
      throw stopped;
    }
    return conflicts;
  }
}
