package dev.statekit.stream.lambda.internal;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.EgressException;
import dev.statekit.stream.PipelineFailedException;
import dev.statekit.stream.lambda.Attempt;
import dev.statekit.stream.lambda.BatchFaultHook.Step;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.DeferredMessage;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.state.StateStoreException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One batch, start to end: the records through the stateless operators (no I/O), then
 *
 * <ol>
 *   <li>read the splits and the batch's keys (for a queue also its messages' receipts), and record
 *       the attempt of a shard's batch, then read the shard's latest attempts (two round trips for
 *       a shard's batch, one for a queue's);
 *   <li>apply the records per key in memory, skipping what each key applied before, and fire the
 *       windows due at the pipeline's watermark from the keys in memory; then write every key
 *       touched (one conditional write each), the windows it opened to the timer index, and ask the
 *       index for due windows of other keys (one round trip);
 *   <li>read those keys and fire their windows (one round trip, only then);
 *   <li>deliver every output (one round trip, only if there is any); a queue's batch writes its
 *       messages' receipts and its split beside the deliveries;
 *   <li>a shard's batch then writes its checkpoint (position, watermark, the windows delivered) and
 *       drops the timer items it fired (one round trip).
 * </ol>
 *
 * A crash at any point leaves what a retry of the batch completes: keys skip what they applied,
 * outputs go out again with the same ids from the keys' outboxes (a checkpoint, written only after
 * the deliveries, is what says they arrived), windows not recorded as delivered fire again.
 */
final class BatchFlow {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(BatchFlow.class);
  private static final int MAX_CONFLICT_ROUNDS = 10;

  /**
   * Attempts read with each batch: the latest, which hold any batch attempted since the checkpoint
   * (one is enough to notice a given-up batch) and any batch interleaving with this one.
   */
  static final int RECENT_ATTEMPTS = 20;

  private final BatchEngine engine;
  private final SourceBatch batch;
  private final GivenUp replaying;
  private final Capture capture;
  private final String split;
  private final long now;

  /** The split's latest attempts, as the batch read them with its split. */
  private final List<Attempt> recent = new ArrayList<>();

  /**
   * Messages of this batch whose receipts appeared while it ran (a copy applied them): applied,
   * their receipts' outputs delivered again, and their receipts not written again by this batch.
   */
  private final Set<String> receiptedMeanwhile = new HashSet<>();

  /** Where a split the pipeline did not know joins, once read. */
  private Long joins;

  /** When the batch stops taking records. */
  private final BatchDeadline deadline;

  /** The context of the records the keyed pass took before the deadline stopped it, or null. */
  private BatchContext cutContext;

  /**
   * A batch; {@code replaying} names the given-up range it replays, or is null; {@code deadline}
   * says when it stops taking records.
   */
  BatchFlow(BatchEngine engine, SourceBatch batch, GivenUp replaying, BatchDeadline deadline) {
    this.engine = engine;
    this.batch = batch;
    this.replaying = replaying;
    this.deadline = deadline;
    this.capture = new Capture(engine.shape.routes());
    this.split = batch.split();
    this.now = engine.settings.clock().millis();
  }

  BatchResult run() throws Exception {
    SourcePass sources = new SourcePass(engine.shape, engine.name, deadline);
    List<SourceOutcome> outcomes = sources.run(batch, capture);
    boolean keyed = engine.shape.keyedOperator() != null;
    Set<String> keys = new HashSet<>(Sized.capacity(batch.records().size()));
    outcomes.forEach(o -> o.keyed.forEach(input -> keys.add(input.encoded())));
    String first = batch.records().isEmpty() ? null : batch.records().get(0).position().offset();
    long reach = Long.MIN_VALUE;
    for (SourceOutcome outcome : outcomes) {
      reach = Math.max(reach, outcome.maxTimestamp);
    }

    List<SplitState> splits = new ArrayList<>();
    Map<String, KeyItem> items = new LinkedHashMap<>();
    Map<String, byte[]> receipts = new HashMap<>();
    List<Attempt> attempts = recent;
    List<Runnable> reads = new ArrayList<>();
    reads.add(() -> splits.addAll(engine.store().readSplits(engine.name)));
    if (keyed && !keys.isEmpty()) {
      reads.add(() -> items.putAll(engine.readKeys(keys, false)));
    }
    if (batch.ordered() && replaying == null && first != null) {
      String last = batch.records().get(batch.records().size() - 1).position().offset();
      Attempt attempt = new Attempt(first, last, now, engine.shape.watermarkAt(reach));
      long expires = (now + engine.settings.retentionMs()) / 1000 + 1;
      // The attempts are read after this batch's is recorded: one recorded late, by an invocation
      // that died with it in flight, is then either read here or refused (putAttemptInOrder).
      reads.add(
          () -> {
            if (!engine.store().putAttemptInOrder(engine.name, split, attempt, expires)) {
              // A live batch behind one attempted after it: the shard's batches interleave
              // (ParallelizationFactor above 1). Recorded all the same, so that the batches after
              // it notice its records as given up; the fence refuses it once the attempts are read.
              engine.store().putAttempt(engine.name, split, attempt, expires);
            }
            attempts.addAll(engine.store().latestAttempts(engine.name, split, RECENT_ATTEMPTS));
          });
    }
    List<Attempt> inRange = new ArrayList<>();
    if (replaying != null && replaying.attempted() != null && first != null) {
      // The range's attempts may have fired windows up to their watermarks before they died.
      String from = replaying.attempted();
      String to =
          new java.math.BigInteger(replaying.before())
              .subtract(java.math.BigInteger.ONE)
              .toString();
      reads.add(() -> inRange.addAll(engine.store().attempts(engine.name, split, from, to)));
    }
    if (replaying != null && replaying.attempted() == null && first != null) {
      // A range no invocation had attempted: from now on one has, and the on-failure record that
      // named it is answered "nothing to replay".
      String last = batch.records().get(batch.records().size() - 1).position().offset();
      Attempt attempt = new Attempt(first, last, now);
      long expires = (now + engine.settings.retentionMs()) / 1000 + 1;
      reads.add(() -> engine.store().putAttempt(engine.name, split, attempt, expires));
    }
    DeferredDeliveries deferrals =
        batch.ordered() || !keyed ? null : new DeferredDeliveries(engine, split, now);
    List<DeferredMessage> deferredBefore = new ArrayList<>();
    if (deferrals != null && inOrderGroups()) {
      // Outputs of an order group go out in its order: deferred ones of earlier messages first.
      reads.add(() -> deferredBefore.addAll(deferrals.firstPage()));
    }
    engine.together(reads);
    Set<String> receiptsRead = new LinkedHashSet<>();
    if (!batch.ordered() && keyed) {
      // After the keys, not beside them: a key drops a pending message only once its receipt is
      // written, so a message of this batch that a copy of it applied is either pending in the
      // keys read or has a receipt this read finds. Read with them: the receipts of the keys'
      // pending messages this process does not know (a new execution environment).
      outcomes.forEach(o -> receiptsRead.add(o.offset));
      receiptsRead.addAll(unknownPending(items, receiptsRead, 0));
      receipts.putAll(engine.store().readReceipts(engine.name, split, receiptsRead));
    }
    engine.reached(Step.LOADED, split);

    Progress progress = new Progress(splits, now, engine.settings.batchTimeoutMs());
    SplitState state = progress.split(split);
    GivenUp gap =
        batch.ordered() && replaying == null && first != null
            ? ShardFence.check(engine.name, state, attempts, first, now)
            : null;
    long reached = Long.MIN_VALUE;
    if (gap != null) {
      ShardFence.Noticed noticed =
          ShardFence.withAttempts(engine.store(), engine.name, state, gap, attempts);
      gap = noticed.gap();
      reached = noticed.reached();
      LOG.warn(
          "Pipeline "
              + engine.name
              + ": Lambda gave up on the records of "
              + split
              + " after "
              + (gap.after() == null ? "its start" : gap.after())
              + " and before "
              + gap.before()
              + " (the event source mapping's MaximumRetryAttempts; its on-failure destination"
              + " names them). Windows past their event time wait until they are replayed: read"
              + " them from the stream and hand them to BatchPipeline.replay.");
    }
    List<GivenUp> givenUp = new ArrayList<>(progress.givenUp());
    if (gap != null) {
      givenUp.add(gap);
    }
    BatchRecords applied =
        new BatchRecords(
            batch,
            outcomes,
            replaying == null ? state.position() : null,
            receipts,
            engine.shape.routes(),
            engine.name);
    int repeats = sources.repeats + applied.covered;

    BatchContext context = null;
    KeyedPass.Result pass = null;
    GivenUp noticed = gap;
    long attemptsReached = reached;
    KeyedPass.Cut cut =
        deadline == BatchDeadline.NONE
            ? null
            : new KeyedPass.Cut() {
              @Override
              public boolean due() {
                return deadline.keysStop();
              }

              @Override
              public BatchContext at(int source) {
                applied.cutAt(source);
                cutContext =
                    context(
                        progress,
                        state,
                        applied,
                        givenUp,
                        noticed,
                        attemptsReached,
                        receipts,
                        inRange,
                        true);
                return cutContext;
              }
            };
    while (true) {
      context = context(progress, state, applied, givenUp, gap, reached, receipts, inRange, false);
      cutContext = null;
      pass =
          keyed
              ? KeyedPass.forBatch(context, engine.decoded(), applied::group, cut)
                  .run(applied.inputs(), items, Map.of())
              : KeyedPass.Result.done(Map.of());
      if (cutContext != null) {
        // The records the pass did not take set no watermark: what follows fires by those it took.
        context = cutContext;
      }
      if (!pass.failed()) {
        break;
      }
      applied.handBack(pass.handBack(), pass.failure(), batch.ordered());
    }
    Map<String, KeyWork> works = new LinkedHashMap<>(pass.works());

    // Writes: the keys, their new windows, and the question which other windows are due.
    List<TimerItem> due = new ArrayList<>();
    List<Runnable> writes = new ArrayList<>();
    Set<String> conflicts = new HashSet<>();
    writes.add(() -> conflicts.addAll(engine.writeKeys(works.values())));
    List<TimerItem> timers = timers(works);
    if (!timers.isEmpty()) {
      writes.add(() -> engine.store().putTimers(engine.name, timers));
    }
    BatchContext fired = context;
    if (context.fires()) {
      writes.add(
          () ->
              due.addAll(
                  engine
                      .store()
                      .timersDueBy(engine.name, fired.fireUpTo(), engine.settings.timerPage())));
    }
    // The stateless stages' outputs (kept nowhere) before anything is applied: a sink that does
    // not take them fails the batch with no key applied, so a message handed back for it is one
    // no key knows, whatever comes of it (beside the keys' writes, an applied message went back).
    Deliveries early = engine.deliveries();
    applied.outputs().forEach(routed -> early.add(routed.route(), routed.record()));
    // Behind deferred outputs that are still there, this batch's go after them, deferred too; its
    // stateless outputs cannot wait with them (nothing keeps them), so then it waits whole.
    boolean behind = !deferredBefore.isEmpty() && !drained(deferrals, deferredBefore);
    if (behind && early.size() > 0) {
      throw new EgressException(
          Reason.UNAVAILABLE,
          "Pipeline "
              + engine.name
              + ": outputs of earlier messages of "
              + split
              + " still wait for their sink (the tick delivers them), and this batch's outputs of"
              + " the stages before the keyBy, which nothing keeps, go after them: it comes again"
              + " with nothing applied",
          null);
    }
    engine.together(early.calls());
    engine.together(writes);
    resolveConflicts(context, applied, works, conflicts, receipts, receiptsRead);
    if (!batch.ordered()) {
      Set<String> heldBack = applied.failedInGroups();
      if (!heldBack.isEmpty()) {
        works.values().forEach(work -> work.holdBack(heldBack, engine.shape.routes()));
      }
    }
    engine.reached(Step.FLUSHED, split);

    // Windows the index says are due, of keys this batch did not touch.
    IndexFire index = null;
    if (context.fires()) {
      index =
          new IndexFire(
              due,
              engine.settings.timerPage(),
              time -> engine.store().timersDueBy(engine.name, time, Integer.MAX_VALUE),
              context.firedThrough(),
              context.fireUpTo(),
              engine.codec,
              engine.shape,
              works.keySet());
      if (index.through < context.fireUpTo()) {
        // The index holds more than one query read: this round fires only through where it stopped.
        long through = index.through;
        works.values().forEach(work -> work.keepFiredThrough(through));
      }
      fireFromIndex(context, index, works);
    }

    Deliveries late = engine.deliveries();
    applied.receipted.forEach(routed -> late.add(routed.route(), routed.record()));
    KeyedPass.all(works).forEach(routed -> late.add(routed.route(), routed.record()));
    Map<String, byte[]> written = batch.ordered() ? Map.of() : receipts(works);
    written.keySet().removeAll(receiptedMeanwhile);
    if (!applied.failedOffsets.isEmpty()) {
      written.keySet().removeAll(new HashSet<>(applied.failedOffsets));
    }
    List<EgressException> sinkFailures = Collections.synchronizedList(new ArrayList<>());
    List<Runnable> deliver = new ArrayList<>();
    if (!behind) {
      late.calls()
          .forEach(call -> deliver.add(deferrals == null ? call : deferrable(call, sinkFailures)));
    }
    if (!batch.ordered()) {
      // A receipt only once every key of its message is written: the keys' entries say the rest.
      if (!written.isEmpty()) {
        long expires = (now + engine.settings.retentionMs()) / 1000 + 1;
        deliver.add(() -> engine.store().writeReceipts(engine.name, split, written, expires));
      }
      SplitState next = checkpoint(state, applied, context, index, null, gap);
      deliver.add(() -> writeCheckpoint(next, first, state.position()));
    }
    engine.reached(Step.DELIVERY, split);
    engine.together(deliver);
    if (behind || !sinkFailures.isEmpty()) {
      defer(deferrals, behind, written, receipts, applied, sinkFailures);
    }
    engine.reached(Step.DELIVERED, split);
    if (batch.ordered()) {
      // Written only now, after the deliveries: the checkpoint is their receipt.
      SplitState next = checkpoint(state, applied, context, index, first, gap);
      List<Runnable> last = new ArrayList<>();
      last.add(() -> writeCheckpoint(next, first, state.position()));
      if (index != null && !index.covered.isEmpty()) {
        List<String> consumed = index.covered;
        last.add(() -> engine.store().deleteTimers(engine.name, consumed));
      }
      engine.together(last);
    } else {
      engine.confirmed(split, written.keySet());
    }
    engine.reached(Step.CHECKPOINTED, split);
    return result(applied, works, repeats, context);
  }

  /**
   * Pages of deferred messages a batch of order groups delivers before its own outputs, at most,
   * and only while its deadline leaves the keyed pass time: after an outage it drains more than it
   * defers, while its time stays bounded.
   */
  private static final int BATCH_DRAIN_PAGES = 10;

  /** Whether the batch's records come in order groups (a FIFO queue's, a DynamoDB stream's). */
  private boolean inOrderGroups() {
    for (dev.statekit.stream.Record<byte[]> record : batch.records()) {
      if (record.headers().containsKey(SourceBatch.ORDER_GROUP)) {
        return true;
      }
    }
    return false;
  }

  /** Delivers the deferred messages read with the batch; false if some are still deferred. */
  private boolean drained(DeferredDeliveries deferrals, List<DeferredMessage> first) {
    try {
      int[] pages = {1};
      // No page more once the keyed pass would stop: the batch's own writes and answer come first.
      return deferrals
          .drain(first, () -> pages[0]++ < BATCH_DRAIN_PAGES && !deadline.keysStop())
          .empty();
    } catch (EgressException | MissingOutputException e) {
      // Refused too: a record the sink refuses holds the split's later outputs, not the batch; so
      // does an output this deployment lacks (failing the batch, it failed on every receive).
      return false;
    }
  }

  /**
   * A delivery whose sink's own failure (one naming no record: out of reach, no permission) is kept
   * for {@link #defer} instead of failing the batch; a refused record still fails it.
   */
  private static Runnable deferrable(Runnable call, List<EgressException> failures) {
    return () -> {
      try {
        call.run();
      } catch (EgressException e) {
        if (e.refusedRecordId().isPresent()) {
          throw e;
        }
        failures.add(e);
      }
    };
  }

  /**
   * Records the batch's applied messages (those with receipts) as deferred, in their order, so that
   * the batch answers them done: handed back, a message a queue moves to its dead-letter queue
   * after its last receive would be applied again once redriven (under a new message id, which no
   * receipt knows). With no such message, the sink's failure fails the batch as before.
   */
  private void defer(
      DeferredDeliveries deferrals,
      boolean behind,
      Map<String, byte[]> written,
      Map<String, byte[]> receipts,
      BatchRecords applied,
      List<EgressException> sinkFailures) {
    Set<String> failed = new HashSet<>(applied.failedOffsets);
    Map<String, byte[]> receipted = new LinkedHashMap<>();
    for (dev.statekit.stream.Record<byte[]> record : batch.records()) {
      String id = record.position().offset();
      // Written by this batch, found when it started, or written meanwhile by a copy of it.
      byte[] receipt = written.containsKey(id) ? written.get(id) : receipts.get(id);
      if (receipt != null && !failed.contains(id)) {
        receipted.putIfAbsent(id, receipt);
      }
    }
    EgressException why = sinkFailures.isEmpty() ? null : sinkFailures.get(0);
    if (receipted.isEmpty()) {
      if (why != null) {
        throw why;
      }
      return;
    }
    deferrals.defer(receipted, behind, why);
  }

  private BatchContext context(
      Progress progress,
      SplitState state,
      BatchRecords applied,
      List<GivenUp> givenUp,
      GivenUp gap,
      long reached,
      Map<String, byte[]> receipts,
      List<Attempt> lateAfter,
      boolean cut) {
    long firedThrough = progress.firedThrough();
    // Windows that fired are closed to every split; a split the pipeline did not know yet joins
    // behind the watermark the others may be firing at. A replay is late against the watermark its
    // split had when its records were given up.
    // After a range given up, also against the windows its attempts may have fired.
    long lateness =
        Math.max(
            replaying != null ? replaying.watermark() : Progress.lateness(state),
            Math.max(firedThrough, reached));
    if (state.version() == 0) {
      if (joins == null) {
        joins = engine.joinWatermark(progress.all());
      }
      lateness = Math.max(lateness, joins);
    }
    // A batch cut at its deadline fires no window its own records made due: where it was cut is
    // not kept until its checkpoint, and a try of the same records that crashed before that, tried
    // again whole, would take the records past the cut into a window fired without them.
    long watermark =
        cut ? lateness : Math.max(lateness, engine.shape.watermarkAt(applied.maxTimestamp()));
    long self = gap == null ? watermark : Math.min(watermark, gap.watermark());
    long fireUpTo =
        batch.ordered() && replaying == null
            ? progress.pipelineWatermark(split, self)
            : Long.MIN_VALUE;
    Set<String> offsets = new HashSet<>(Sized.capacity(batch.records().size()));
    batch.records().forEach(r -> offsets.add(r.position().offset()));
    return new BatchContext(
        engine.name,
        engine.shape,
        capture,
        engine.settings,
        split,
        batch.ordered(),
        batch.changes(),
        applied.firstOffset(),
        offsets,
        lateness,
        firedThrough,
        fireUpTo,
        progress.positions(),
        givenUp,
        replaying,
        // This batch's own messages: only the receipts it read. Another invocation on this
        // instance may confirm one of them after that read (a message handed over again while its
        // first attempt runs): taken for confirmed, its pending entry would go and it would be
        // applied again.
        (s, id) ->
            s.equals(split)
                ? receipts.containsKey(id) || (!offsets.contains(id) && engine.isConfirmed(s, id))
                : engine.isConfirmed(s, id),
        now,
        lateAfter);
  }

  private List<TimerItem> timers(Map<String, KeyWork> works) {
    if (engine.codec == null) {
      return List.of();
    }
    List<Opened> opened = new ArrayList<>();
    works.values().forEach(work -> opened.addAll(work.opened));
    return engine.codec.encode(opened, split);
  }

  /**
   * The messages of this split the keys read keep as pending, not in {@code read} and not known
   * confirmed, of keys holding at least {@code atLeast} bytes of pending messages: a key drops a
   * pending message once its receipt is known, and a process that did not write or read those
   * receipts itself (a new execution environment) would otherwise keep them until the retention,
   * filling the key's share of its item.
   */
  private Set<String> unknownPending(Map<String, KeyItem> items, Set<String> read, int atLeast) {
    Set<String> ids = new LinkedHashSet<>();
    for (KeyItem item : items.values()) {
      if (item.bookkeeping() != null) {
        KeyBook book = KeyBook.decode(item.bookkeeping());
        if (book.pendingBytes() < atLeast) {
          continue;
        }
        for (String id : book.pendingIds(split)) {
          if (!read.contains(id) && !engine.isConfirmed(split, id)) {
            ids.add(id);
          }
        }
      }
    }
    return ids;
  }

  /** Each message's outputs over every key, for its receipt. */
  private static Map<String, byte[]> receipts(Map<String, KeyWork> works) {
    Map<String, List<StoredOutput>> outputs = new LinkedHashMap<>();
    for (KeyWork work : works.values()) {
      for (String id : work.appliedIds) {
        outputs
            .computeIfAbsent(id, i -> new ArrayList<>())
            .addAll(work.outbox.getOrDefault(id, List.of()));
      }
      for (String id : work.repeatedIds) {
        outputs
            .computeIfAbsent(id, i -> new ArrayList<>())
            .addAll(work.again.getOrDefault(id, List.of()));
      }
    }
    Map<String, byte[]> encoded = new LinkedHashMap<>();
    outputs.forEach((id, list) -> encoded.put(id, Receipts.encode(list)));
    return encoded;
  }

  /** Keys another invocation wrote since they were read: read again, run again, write again. */
  private void resolveConflicts(
      BatchContext context,
      BatchRecords applied,
      Map<String, KeyWork> works,
      Set<String> conflicts,
      Map<String, byte[]> receipts,
      Set<String> receiptsRead)
      throws Exception {
    for (int round = 1; !conflicts.isEmpty(); round++) {
      if (round > MAX_CONFLICT_ROUNDS) {
        throw new StateStoreException(
            Reason.CONFLICT,
            "Keys "
                + conflicts
                + " of pipeline "
                + engine.name
                + " kept changing under batch"
                + " after batch of "
                + split
                + "; the batch is retried");
      }
      Map<String, KeyItem> items = engine.readKeys(conflicts, true);
      if (!batch.ordered()) {
        // After the fresh keys, the receipts of this batch's messages to them that had none: a
        // copy of a message that applied it meanwhile may have left no pending entry to tell.
        // With them, another invocation's pending messages that take much of a key's share.
        Set<String> unsure = new LinkedHashSet<>();
        for (KeyedInput input : applied.inputs()) {
          if (conflicts.contains(input.encoded()) && !receipts.containsKey(input.offset())) {
            unsure.add(input.offset());
          }
        }
        Set<String> ids = new LinkedHashSet<>(unsure);
        ids.addAll(unknownPending(items, receiptsRead, ItemLimit.BATCH_OUTPUT_BYTES / 2));
        Map<String, byte[]> found =
            ids.isEmpty() ? Map.of() : engine.store().readReceipts(engine.name, split, ids);
        receipts.putAll(found);
        Set<String> meanwhile = new LinkedHashSet<>(unsure);
        meanwhile.retainAll(found.keySet());
        applied.receiptedMeanwhile(meanwhile, found);
        receiptedMeanwhile.addAll(meanwhile);
      }
      KeyedPass.Result again;
      while (true) {
        List<KeyedInput> inputs =
            applied.inputs().stream().filter(input -> conflicts.contains(input.encoded())).toList();
        again =
            KeyedPass.again(context, engine.decoded(), works, applied::group)
                .run(inputs, items, Map.of());
        if (!again.failed()) {
          break;
        }
        if (batch.ordered()) {
          throw new IllegalStateException(
              "A record failed when its key was processed again after a concurrent write: "
                  + again.failure());
        }
        // Messages the fresh item has no room for (or that failed on it) go back, though other
        // keys may have applied them: those keep them pending, and their receipts are not written.
        applied.handBack(again.handBack(), again.failure(), false);
      }
      // The first pass's work of a conflicting key was computed on a stale item: a key left with no
      // message of this batch (each receipted meanwhile) has nothing to write or deliver now.
      works.keySet().removeAll(conflicts);
      works.putAll(again.works());
      Set<String> next = engine.writeKeys(again.works().values());
      List<TimerItem> timers = timers(again.works());
      if (!timers.isEmpty()) {
        engine.store().putTimers(engine.name, timers);
      }
      conflicts.clear();
      conflicts.addAll(next);
    }
  }

  private void fireFromIndex(BatchContext context, IndexFire index, Map<String, KeyWork> works)
      throws Exception {
    List<Runnable> calls = new ArrayList<>();
    Map<String, KeyItem> items = new LinkedHashMap<>();
    if (!index.windows.isEmpty()) {
      calls.add(() -> items.putAll(engine.readKeys(index.windows.keySet(), true)));
    }
    if (!index.rests.isEmpty()) {
      calls.add(() -> engine.store().putTimers(engine.name, index.rests));
    }
    engine.together(calls);
    if (!index.windows.isEmpty()) {
      works.putAll(
          new KeyedPass(context, engine.decoded()).run(List.of(), items, index.windows).works());
    }
  }

  private SplitState checkpoint(
      SplitState state,
      BatchRecords applied,
      BatchContext context,
      IndexFire index,
      String first,
      GivenUp gap) {
    long watermark = Math.max(context.lateness(), engine.shape.watermarkAt(applied.maxTimestamp()));
    if (replaying != null) {
      if (!applied.failedOffsets.isEmpty()) {
        // A record of the replay failed: the range stays open, to be replayed again.
        return state.withVersion(state.version() + 1);
      }
      return Progress.afterReplay(
          state, replaying, engine.shape.watermarkAt(applied.maxTimestamp()), now);
    }
    if (!batch.ordered()) {
      return Progress.afterUnorderedBatch(state, watermark, now, engine.settings.batchTimeoutMs());
    }
    List<GivenUp> givenUp = new ArrayList<>(state.givenUp());
    if (gap != null) {
      givenUp.add(gap);
    }
    String last = applied.lastOffset();
    return Progress.afterOrderedBatch(
        state,
        last == null ? state.position() : last,
        last == null ? state.lastStart() : first,
        resumes(state, applied, first),
        watermark,
        now,
        index == null ? state.firedThrough() : index.through,
        givenUp);
  }

  /**
   * Where Lambda may resume after this batch: its first failed record; and, for the batch that
   * wrote the checkpoint handed over again, where the earlier answers sent Lambda (a copy that ran
   * beside it may have applied the rest, and Lambda goes by one answer, which this batch cannot
   * know). A batch that applied nothing new (its records all behind the checkpoint: a retry from
   * one of those answers, or a copy of it) leaves the checkpoint's batch as it was, and so its
   * restarts: Lambda may hand this retry over again too.
   */
  private static List<String> resumes(SplitState state, BatchRecords applied, String first) {
    boolean same = first != null && first.equals(state.lastStart());
    List<String> earlier = same || applied.lastOffset() == null ? state.resumes() : List.of();
    List<String> own =
        applied.failedOffsets.isEmpty() ? List.of() : List.of(applied.failedOffsets.get(0));
    return ShardFence.restarts(earlier, own);
  }

  /** Writes the checkpoint; if the tick (or a repeat of this batch) moved the split, merges. */
  private void writeCheckpoint(SplitState next, String first, String readPosition) {
    SplitState attempt = next;
    for (int round = 1; !engine.store().writeSplit(engine.name, attempt); round++) {
      if (round > MAX_CONFLICT_ROUNDS) {
        throw new StateStoreException(
            Reason.CONFLICT, "The checkpoint of " + split + " kept changing; the batch is retried");
      }
      SplitState stored =
          new Progress(
                  engine.store().readSplits(engine.name), now, engine.settings.batchTimeoutMs())
              .split(split);
      if (!batch.ordered() && replaying == null && covers(stored, next)) {
        return;
      }
      attempt = merged(stored, next, first, readPosition);
    }
  }

  /**
   * Whether an unordered split as stored already says what this batch's write would: batches of the
   * queue (or table) that started no earlier than this one wrote it since (its last batch, which
   * only rises, is at least this batch's start: the tick never moves it), with a watermark at least
   * this batch's. Its write adds nothing then (what it would propose as the candidate, they or the
   * tick propose), and the batch, whose keys, receipts and deliveries are done, must not fail for
   * losing the race: concurrent invocations of one queue all write its one split, and with no more
   * than a conflict's few rounds most of them lost every one.
   */
  private boolean covers(SplitState stored, SplitState next) {
    return stored.watermark() >= next.watermark() && stored.activeAt() >= now;
  }

  private SplitState merged(SplitState stored, SplitState next, String first, String readPosition) {
    if (replaying != null) {
      return next.givenUp().contains(replaying)
          ? stored.withVersion(stored.version() + 1)
          : Progress.afterReplay(stored, replaying, next.watermark(), now);
    }
    if (!batch.ordered()) {
      return Progress.afterUnorderedBatch(
          stored, next.watermark(), now, engine.settings.batchTimeoutMs());
    }
    // Only this batch again, or the tick, may write the split while a batch of it runs. From the
    // split alone a batch running beside this one (ParallelizationFactor above 1) and the late
    // checkpoint of the last attempt of a batch Lambda gave up on (timed out, its write landing
    // after this batch read the split) look the same: both are refused, and the retry of this
    // batch reads that checkpoint and goes on.
    boolean moved =
        !Objects.equals(stored.position(), readPosition)
            && !Objects.equals(stored.lastStart(), first);
    if (moved) {
      throw new PipelineFailedException(
          "Pipeline "
              + engine.name
              + ": another batch of "
              + split
              + " (from "
              + stored.lastStart()
              + ") checkpointed while the batch from "
              + first
              + " ran: the shard's batches interleave, as they do when the event source"
              + " mapping's ParallelizationFactor is above 1 (set it to 1), or the last attempt of"
              + " a batch Lambda gave up on wrote its checkpoint late (with ParallelizationFactor 1"
              + " nothing is lost: Lambda's retry of this batch goes on from that checkpoint, and"
              + " with no retries left the batch is given up and replayed as any other).",
          null);
    }
    List<GivenUp> givenUp = new ArrayList<>(stored.givenUp());
    for (GivenUp gap : next.givenUp()) {
      if (!givenUp.contains(gap)) {
        givenUp.addAll(ShardFence.outside(engine.store(), engine.name, stored, gap, recent));
      }
    }
    String position = next.position();
    if (stored.position() != null
        && (position == null
            || dev.statekit.stream.SourcePosition.compareOffsets(stored.position(), position)
                > 0)) {
      position = stored.position();
    }
    // A copy of this batch that checkpointed first keeps the restarts its answer gave.
    List<String> resumes =
        Objects.equals(stored.lastStart(), first)
            ? ShardFence.restarts(stored.resumes(), next.resumes())
            : next.resumes();
    return Progress.afterOrderedBatch(
        stored,
        position,
        next.lastStart(),
        resumes,
        Math.max(next.watermark(), stored.watermark()),
        now,
        Math.max(next.firedThrough(), stored.firedThrough()),
        givenUp);
  }

  private BatchResult result(
      BatchRecords applied, Map<String, KeyWork> works, int repeats, BatchContext context) {
    int appliedRecords = 0;
    int late = 0;
    int fired = 0;
    for (KeyWork work : works.values()) {
      appliedRecords += work.applied;
      repeats += work.repeats;
      late += work.late;
      fired += work.fired;
    }
    if (engine.shape.keyedOperator() == null) {
      appliedRecords = applied.outcomes.size();
    }
    return new BatchResult(
        applied.failedOffsets,
        Optional.ofNullable(applied.failure),
        appliedRecords,
        repeats,
        late,
        fired,
        context.fireUpTo());
  }
}
