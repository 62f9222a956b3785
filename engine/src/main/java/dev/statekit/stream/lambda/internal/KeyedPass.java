package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.internal.Operator;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.lambda.internal.KeyBook.Outbox;
import dev.statekit.stream.lambda.internal.KeyBook.Pending;
import dev.statekit.stream.lambda.internal.SourceOutcome.Routed;
import dev.statekit.stream.state.internal.CachingStateBackend;
import dev.statekit.stream.state.internal.StateKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Runs the keyed operator over some keys of a batch: their records in order (each skipped if the
 * key applied it before), then the windows due now, from the state in memory. Works per key, so a
 * key whose write conflicted runs again alone on its fresh item.
 */
final class KeyedPass {
  /**
   * The keys' work; or the records to hand back, and why: the first record whose processing failed,
   * or those a key had no room left for ({@link ItemLimit#BATCH_OUTPUT_BYTES}).
   */
  record Result(Map<String, KeyWork> works, List<Integer> handBack, String failure) {
    static Result done(Map<String, KeyWork> works) {
      return new Result(works, List.of(), null);
    }

    boolean failed() {
      return !handBack.isEmpty();
    }
  }

  /**
   * Where the pass over a batch stops taking records at the batch's deadline ({@link
   * BatchDeadline#keysStop}).
   */
  interface Cut {
    /** Whether the pass takes no more records. */
    boolean due();

    /**
     * The records from source record {@code source} on go back untaken: the context of the records
     * before it, whose watermark fires the windows of this pass.
     */
    BatchContext at(int source);
  }

  private final BatchContext context;
  private final DecodedItems decoded;
  private final IntFunction<String> groups;
  private final boolean bounded;
  private final Keys keys;
  private final QueueItemRoom room;
  private final Cut cut;

  /** What the pass fires windows by: {@link #context}, or the context of the records it took. */
  private BatchContext firing;

  /**
   * A pass that applies every record it is given (firings, keys run again after a conflicting
   * write); {@code decoded} holds keys' items decoded by earlier batches, or is null.
   */
  KeyedPass(BatchContext context, DecodedItems decoded) {
    this(context, decoded, source -> null, false, Map.of(), null);
  }

  private KeyedPass(
      BatchContext context,
      DecodedItems decoded,
      IntFunction<String> groups,
      boolean bounded,
      Map<String, KeyWork> before,
      Cut cut) {
    this.context = context;
    this.decoded = decoded;
    this.groups = groups;
    this.bounded = bounded;
    this.keys = new Keys(context, decoded, before);
    this.room = new QueueItemRoom(context, keys, groups);
    this.cut = cut;
    this.firing = context;
  }

  /**
   * The pass that runs keys again on their fresh items after a conflicting write, with the records
   * the batch's pass chose for them ({@code before}, that pass's work): a queue message that pass
   * found a key had applied stays applied, even if the fresh item no longer holds it as pending (an
   * invocation that saw its receipt dropped it meanwhile). On a queue it hands back what the fresh
   * item has no room for, as the batch's pass does ({@code groups} as there): the fresh item may
   * hold other invocations' pending messages the batch's pass did not count. On a shard it applies
   * them all: the batch's windows fired at a watermark its records set, so none of them may go
   * back.
   */
  static KeyedPass again(
      BatchContext context,
      DecodedItems decoded,
      Map<String, KeyWork> before,
      IntFunction<String> groups) {
    return new KeyedPass(context, decoded, groups, !context.ordered(), before, null);
  }

  /**
   * The pass over a batch's records, which hands back the records a key has no room for ({@link
   * ItemLimit#BATCH_OUTPUT_BYTES}) and, on a queue, goes on past failed messages; {@code groups}
   * gives a source record's order group, or null. At the batch's deadline ({@code cut}, null for
   * none) it takes no more records, but always the whole of its first.
   */
  static KeyedPass forBatch(
      BatchContext context, DecodedItems decoded, IntFunction<String> groups, Cut cut) {
    return new KeyedPass(context, decoded, groups, true, Map.of(), cut);
  }

  /**
   * Applies {@code inputs} and fires due windows.
   *
   * @param items the stored items of the inputs' keys and of {@code dueWindows}' keys
   * @param dueWindows windows the timer index says are due, of keys that may have no input
   */
  Result run(
      List<KeyedInput> inputs, Map<String, KeyItem> items, Map<String, List<Opened>> dueWindows)
      throws Exception {
    java.util.Set<String> writing = new java.util.HashSet<>();
    inputs.forEach(input -> writing.add(input.encoded()));
    BatchTable table = new BatchTable(items, decoded, writing);
    try {
      return run(inputs, items, dueWindows, table);
    } finally {
      table.giveBack();
    }
  }

  private Result run(
      List<KeyedInput> inputs,
      Map<String, KeyItem> items,
      Map<String, List<Opened>> dueWindows,
      BatchTable table)
      throws Exception {
    BatchChains.Chain chain =
        BatchChains.open(
            context.shape().plan(),
            1,
            context.pipeline(),
            new CachingStateBackend(table, Integer.MAX_VALUE),
            context.capture(),
            null);
    Operator head = chain.head();
    BatchWindowOperator window = head instanceof BatchWindowOperator w ? w : null;
    if (window != null) {
      window.lateness(context.lateness());
    }
    Map<String, KeyWork> works = new LinkedHashMap<>(Sized.capacity(inputs.size()));
    Set<Integer> full = new LinkedHashSet<>();
    String fullWhy = null;
    Failures failures = new Failures();
    boolean took = false;
    List<KeyedInput> taken = inputs;
    for (int i = 0; i < inputs.size(); i++) {
      KeyedInput input = inputs.get(i);
      if (cut != null && took && input.source() != inputs.get(i - 1).source() && cut.due()) {
        // Between two source records, so that each record taken is taken whole; what is left of
        // the pass (windows, the room of a queue's keys) goes by the records taken.
        firing = cut.at(input.source());
        taken = inputs.subList(0, i);
        break;
      }
      if (failures.skips(input)) {
        continue;
      }
      KeyWork work = works.get(input.encoded());
      if (work == null) {
        work =
            keys.prepare(
                input.key(), input.encoded(), items.get(input.encoded()), window, input.offset());
        works.put(input.encoded(), work);
        if (work.missing != null
            && handBackMissing(inputs, work, failures)
            && failures.skips(input)) {
          continue;
        }
      }
      if (keys.repeat(work, input)) {
        work.repeats++;
        took = true;
        continue;
      }
      if (bounded && full(work, input)) {
        if (fullWhy == null) {
          fullWhy = fullWhy(work, input);
        }
        if (context.ordered()) {
          return new Result(works, List.of(input.source()), fullWhy);
        }
        full.add(input.source());
        continue;
      }
      KeyWork target = work;
      context
          .capture()
          .target(
              new IdTarget(
                  context.pipeline(),
                  context.shape().routes(),
                  input.key(),
                  () -> context.split() + "/" + input.offset() + "/" + input.sub(),
                  routed ->
                      target.output(
                          context.shape().routes(), context.split(), input.offset(), routed)));
      int late = window == null ? 0 : window.lateRecords();
      int kept = work.outboxBytes;
      if (window != null && !context.lateAfter().isEmpty()) {
        window.lateness(context.latenessOf(input.offset()));
      }
      try {
        head.emitKeyed(input.key(), input.record());
      } catch (Exception | StackOverflowError | LinkageError | AssertionError e) {
        String why =
            "Record "
                + input.offset()
                + " of "
                + context.split()
                + " failed for key "
                + input.key()
                + ": "
                + e;
        if (context.ordered()) {
          return new Result(works, List.of(input.source()), why);
        }
        failures.add(inputs, i, why);
        continue;
      }
      if (!context.ordered()
          && !context.setsAside()
          && work.outboxBytes - kept > room.neverKept(work)) {
        // The key's item cannot keep these outputs: the message goes back now, so that its key's
        // other messages are not held back behind it by the key's share.
        failures.add(inputs, i, room.tooLargeWhy(work, input.offset(), work.outboxBytes - kept));
        continue;
      }
      work.late += window == null ? 0 : window.lateRecords() - late;
      if (work.firstSource < 0) {
        work.firstSource = input.source();
      }
      work.applied++;
      keys.applied(work, input);
      took = true;
    }
    if (failures.why != null) {
      full.addAll(failures.sources);
      return new Result(works, List.copyOf(full), failures.why);
    }
    if (!full.isEmpty()) {
      return new Result(works, List.copyOf(full), fullWhy);
    }
    if (window != null) {
      fire(window, works, items, dueWindows);
      for (Opened opened : window.takeOpened()) {
        works.get(StateKeys.encode(opened.key(), context.shape().keySerde())).opened.add(opened);
      }
    }
    chain.flushState();
    if (!context.ordered() && !context.setsAside()) {
      List<QueueItemRoom.Back> back = room.handBack(taken, works, table);
      if (!back.isEmpty()) {
        Failures handed = new Failures();
        for (QueueItemRoom.Back b : back) {
          handed.add(taken, b.input(), b.why());
        }
        return new Result(works, List.copyOf(handed.sources), handed.why);
      }
    }
    for (KeyWork work : works.values()) {
      if (work.touched) {
        byte[] state = table.stateOf(work.encoded);
        keys.finish(work, state);
        work.decoded = table.leftAs(work.encoded, state);
      }
    }
    return Result.done(works);
  }

  /**
   * The records of a queue's batch that failed in this pass, and what their failure leaves unsure:
   * the key that failed (its state may hold part of the failed record), the keys that applied
   * another part of a failed record (a record keyed to several keys), and the record's order group
   * (the messages after it go back with it). The pass goes on past them, so that one pass finds the
   * first failure of every key, not one failure per pass: the records it skips run in the next
   * pass, which starts again from the stored state without the failed records.
   */
  private final class Failures {
    final Set<Integer> sources = new LinkedHashSet<>();
    private final Set<String> keys = new HashSet<>();
    private final Set<String> groups = new HashSet<>();
    String why;

    boolean skips(KeyedInput input) {
      if (why == null) {
        return false;
      }
      if (sources.contains(input.source()) || keys.contains(input.encoded())) {
        return true;
      }
      String group = KeyedPass.this.groups.apply(input.source());
      return group != null && groups.contains(group);
    }

    void add(List<KeyedInput> inputs, int failed, String reason) {
      KeyedInput input = inputs.get(failed);
      why = why == null ? reason : why;
      sources.add(input.source());
      keys.add(input.encoded());
      String group = KeyedPass.this.groups.apply(input.source());
      if (group != null) {
        groups.add(group);
      }
      // The record's parts before this one (a record's keyed parts come together) were applied.
      for (int i = failed - 1; i >= 0 && inputs.get(i).source() == input.source(); i--) {
        keys.add(inputs.get(i).encoded());
      }
    }
  }

  /**
   * Hands back the messages of this pass whose kept outputs the key cannot deliver again (their
   * output is gone): each alone, with its order group, as a failed record goes. A message handed
   * back earlier is not among the inputs any more. Returns whether one was.
   */
  private static boolean handBackMissing(List<KeyedInput> inputs, KeyWork work, Failures failures) {
    boolean any = false;
    for (Map.Entry<String, String> missing : work.missing.entrySet()) {
      int last = -1;
      for (int j = 0; j < inputs.size(); j++) {
        if (inputs.get(j).offset().equals(missing.getKey())) {
          last = j;
        }
      }
      if (last >= 0) {
        failures.add(inputs, last, missing.getValue());
        any = true;
      }
    }
    return any;
  }

  /**
   * Whether the key has no room for {@code input}'s outputs: what it keeps of earlier batches and
   * this batch's outputs reach its share of the item. A key always applies its first record of the
   * batch whole (all its parts), so that every batch moves on.
   */
  private static boolean full(KeyWork work, KeyedInput input) {
    return work.firstSource >= 0
        && input.source() != work.firstSource
        && work.keptBytes + work.outboxBytes >= ItemLimit.BATCH_OUTPUT_BYTES;
  }

  private String fullWhy(KeyWork work, KeyedInput input) {
    return "Record "
        + input.offset()
        + " of "
        + context.split()
        + (context.ordered() ? " and those after it come" : " comes")
        + " again in a later batch: key "
        + work.key
        + " keeps "
        + (work.keptBytes + work.outboxBytes)
        + " bytes of outputs until they are known delivered, its share of DynamoDB's 400 KB"
        + " item; "
        + BatchResult.NOTHING_FAILED;
  }

  /** Fires the windows due now: those of keys in memory, and those the index named. */
  private void fire(
      BatchWindowOperator window,
      Map<String, KeyWork> works,
      Map<String, KeyItem> items,
      Map<String, List<Opened>> dueWindows)
      throws Exception {
    if (!firing.fires()) {
      return;
    }
    Map<KeyWork, List<TimeWindow>> due =
        new LinkedHashMap<>(Sized.capacity(works.size() + dueWindows.size()));
    for (KeyWork work : works.values()) {
      due.put(work, dueOf(window.windowsOf(work.key)));
    }
    for (Map.Entry<String, List<Opened>> named : dueWindows.entrySet()) {
      if (works.containsKey(named.getKey()) || named.getValue().isEmpty()) {
        continue; // in memory: all its due windows are fired above
      }
      Object key = named.getValue().get(0).key();
      KeyWork work = keys.prepare(key, named.getKey(), items.get(named.getKey()), window, null);
      works.put(named.getKey(), work);
      due.put(work, dueOf(named.getValue().stream().map(Opened::window).toList()));
    }
    for (Map.Entry<KeyWork, List<TimeWindow>> entry : due.entrySet()) {
      KeyWork work = entry.getKey();
      for (TimeWindow w : entry.getValue()) {
        context
            .capture()
            .target(
                new IdTarget(
                    context.pipeline(),
                    context.shape().routes(),
                    work.key,
                    () ->
                        context.shape().keyedOperator()
                            + "/"
                            + work.encoded
                            + "/"
                            + w.start()
                            + "-"
                            + w.end(),
                    routed -> work.windowResult(w, routed)));
        work.fired += window.fire(work.key, w) > 0 ? 1 : 0;
      }
    }
  }

  private static final Comparator<TimeWindow> FIRING_ORDER =
      Comparator.comparingLong(TimeWindow::end).thenComparingLong(TimeWindow::start);

  /**
   * The windows due now among {@code windows}, each once, in firing order. Asked for every key of
   * every batch, most of which have none due: no stream, no list until one is.
   */
  private List<TimeWindow> dueOf(List<TimeWindow> windows) {
    List<TimeWindow> due = null;
    for (TimeWindow w : windows) {
      if (w.maxTimestamp() > firing.firedThrough() && w.maxTimestamp() <= firing.fireUpTo()) {
        if (due == null) {
          due = new ArrayList<>(2);
        }
        if (!due.contains(w)) {
          due.add(w);
        }
      }
    }
    if (due == null) {
      return List.of();
    }
    due.sort(FIRING_ORDER);
    return due;
  }

  /** The per-key rules: what was applied before, what goes out again, what is written. */
  static final class Keys {
    private final BatchContext context;
    private final DecodedItems decoded;

    /** What every key of the pass compares with: the same for all, so found once. */
    private final List<GivenUp> behind;

    private final String position;

    /**
     * The work of an earlier pass of this batch over the same keys, if this one runs them again.
     */
    private final Map<String, KeyWork> before;

    Keys(BatchContext context, DecodedItems decoded, Map<String, KeyWork> before) {
      this.context = context;
      this.decoded = decoded;
      this.behind = behind(context);
      this.position = context.positions().get(context.split());
      this.before = before;
    }

    /** The key's bookkeeping: as this process left it for this very item, or decoded. */
    private KeyBook book(String encoded, KeyItem item) {
      if (item == null) {
        return KeyBook.decode(null);
      }
      KeyBook kept =
          decoded == null ? null : decoded.takeBook(encoded, item.version(), item.bookkeeping());
      return kept != null ? kept : KeyBook.decode(item.bookkeeping());
    }

    /**
     * A key met for the first time in this pass, at its record {@code first} (null for a key
     * without records in the batch, met by a window fired from the index). For a key with records
     * in the batch: what it had applied of ranges given up is noted before its mark moves; the
     * outputs of records this batch hands over again go out again; its closed windows are dropped;
     * and if a crashed attempt wrote it, its windows get their timers again (the timer item may not
     * have been written).
     */
    KeyWork prepare(
        Object key, String encoded, KeyItem item, BatchWindowOperator window, String first) {
      boolean touched = first != null;
      KeyWork work = new KeyWork(key, encoded, item, touched ? book(encoded, item) : null, touched);
      if (!touched) {
        return work;
      }
      String split = context.split();
      KeyBook book = work.book;
      book.noteGivenUp(behind);
      boolean unconfirmed = false;
      if (context.ordered()) {
        work.threshold = book.mark(split);
        unconfirmed =
            work.threshold != null
                && (position == null
                    || SourcePosition.compareOffsets(work.threshold, position) > 0);
        for (Outbox entry : book.outbox()) {
          if (entry.split().equals(split) && context.offsets().contains(entry.offset())) {
            redeliver(work, entry.outputs());
          }
        }
        if (context.replaying() == null) {
          holdOver(work, book, split, first);
        }
      } else {
        book.confirm(p -> context.receipted().test(p.split(), p.id()));
        for (Pending entry : book.pending()) {
          if (entry.split().equals(split) && context.offsets().contains(entry.id())) {
            unconfirmed = true;
            redeliverPending(work, entry.id(), entry.outputs());
            work.again.put(entry.id(), entry.outputs());
          }
        }
        KeyWork earlier = before.get(encoded);
        if (earlier != null) {
          // Applied by this key before (the earlier pass saw it pending): a fact that stays.
          earlier.again.forEach(
              (id, outputs) -> {
                if (!work.again.containsKey(id)) {
                  redeliverPending(work, id, outputs);
                  work.again.put(id, outputs);
                }
              });
          unconfirmed |= !earlier.again.isEmpty();
        }
      }
      work.keptBytes = book.keptBytes(context.positions(), context.givenUp());
      // A replayed key may have been written by an attempt that died before its timer items were:
      // once the range is behind the checkpoint nothing else tells, so its windows are reported
      // again.
      unconfirmed |= context.replaying() != null;
      if (window != null) {
        if (context.firedThrough() != Long.MIN_VALUE) {
          window.dropThrough(key, context.firedThrough());
        }
        if (unconfirmed) {
          window.reopen(key);
        }
      }
      return work;
    }

    /**
     * Delivers the outputs the key keeps of records in ranges given up, and keeps them as outputs
     * of its record {@code first}, its own first of this batch, to go once its split's checkpoint
     * passes it: a batch that moves the checkpoint past that record has the key in it, so it
     * delivers them again if this batch did not (kept under another key's record, a retry that
     * stopped before the key would have moved the checkpoint past them undelivered). Kept for their
     * range instead, they would go only with the range's replay (hours away, or never), and until
     * then fill the key's share of its item: every batch of a hot key would apply one record of it
     * and hand the rest back. The replay finds the key applied those records (its mark and notes
     * say so, not its outbox) and has nothing of theirs to deliver again.
     */
    private void holdOver(KeyWork work, KeyBook book, String split, String first) {
      List<Outbox> held =
          behind.isEmpty()
              ? List.of()
              : book.takeOutbox(
                  entry ->
                      behind.stream()
                          .anyMatch(
                              range ->
                                  range.split().equals(entry.split())
                                      && range.covers(entry.offset())));
      if (held.isEmpty()) {
        return;
      }
      // An earlier attempt of this batch may have kept outputs under the same record (they went
      // out again above): kept with these, not replaced by them.
      for (Outbox entry :
          book.takeOutbox(entry -> entry.split().equals(split) && entry.offset().equals(first))) {
        work.carry(split, first, entry.outputs());
      }
      for (Outbox entry : held) {
        redeliver(work, entry.outputs());
        work.carry(split, first, entry.outputs());
      }
    }

    /** The ranges given up that this batch comes after (not those it is inside of). */
    private static List<GivenUp> behind(BatchContext context) {
      String first = context.firstOffset();
      return context.givenUp().stream()
          .filter(
              g ->
                  !(context.ordered()
                      && first != null
                      && g.split().equals(context.split())
                      && g.covers(first)))
          .toList();
    }

    private void redeliver(KeyWork work, List<StoredOutput> outputs) {
      for (StoredOutput output : outputs) {
        work.deliveries.add(output.routed(context.shape().routes(), context.pipeline()));
      }
    }

    /**
     * A queue message's kept outputs, delivered again; if one names an output this deployment
     * lacks, none is, and the key notes why the message goes back ({@link KeyWork#missing}).
     */
    private void redeliverPending(KeyWork work, String id, List<StoredOutput> outputs) {
      try {
        work.deliveries.addAll(
            StoredOutput.routedAll(outputs, context.shape().routes(), context.pipeline()));
      } catch (MissingOutputException e) {
        work.missing(
            id,
            "Message " + id + " of " + context.split() + " was applied before: " + e.getMessage());
      }
    }

    boolean repeat(KeyWork work, KeyedInput input) {
      if (context.replaying() != null) {
        return work.book.applied(context.replaying(), input.offset());
      }
      if (context.ordered()) {
        return work.threshold != null
            && SourcePosition.compareOffsets(input.offset(), work.threshold) <= 0;
      }
      // The key's pending messages of this split that are in the batch, found by prepare.
      if (work.again.containsKey(input.offset())) {
        work.repeatedIds.add(input.offset());
        return true;
      }
      return false;
    }

    void applied(KeyWork work, KeyedInput input) {
      if (context.replaying() != null) {
        work.book.replayed(context.replaying(), input.offset());
      } else if (context.ordered()) {
        work.lastApplied = input.offset();
        // A range the tick took for given up while Lambda still retried it: this is that retry,
        // and the range's later replay must see what it applies.
        for (GivenUp gap : context.givenUp()) {
          if (gap.split().equals(context.split()) && gap.covers(input.offset())) {
            work.book.replayed(gap, input.offset());
          }
        }
      } else {
        work.appliedIds.add(input.offset());
      }
    }

    /** Records what the key applied and emitted, and makes its write. */
    void finish(KeyWork work, byte[] state) {
      long now = context.now();
      byte[] bookkeeping = keep(work, work.book, Set.of());
      if (context.setsAside()) {
        bookkeeping = setAsideWhatCannotBeKept(work, state, bookkeeping);
      }
      if (work.item == null && state == null && bookkeeping == null) {
        return;
      }
      BatchSettings settings = context.settings();
      long expiresAt = 0;
      if (settings.stateTtlSeconds() > 0) {
        expiresAt = now / 1000 + settings.stateTtlSeconds();
      } else if (state == null) {
        expiresAt = (now + settings.retentionMs()) / 1000 + 1;
      }
      ItemLimit.check(
          context.pipeline(),
          context.shape().keyedOperator(),
          work.key,
          work.encoded,
          state,
          bookkeeping,
          work.outboxBytes,
          context.shape().routes().refused() >= 0);
      work.write =
          new KeyWrite(
              work.encoded,
              work.item == null ? 0 : work.item.version(),
              state,
              bookkeeping,
              expiresAt);
    }

    /**
     * Records in {@code book} what the key applied and keeps of the batch (but the messages {@code
     * without}), forgets what is delivered or too old, and encodes it.
     */
    byte[] keep(KeyWork work, KeyBook book, Set<String> without) {
      long now = context.now();
      String split = context.split();
      if (work.lastApplied != null) {
        book.mark(split, work.lastApplied);
      }
      if (context.ordered()) {
        work.outbox.forEach(
            (offset, outputs) -> book.addOutbox(new Outbox(split, offset, now, outputs)));
      } else {
        for (String id : work.appliedIds) {
          if (!without.contains(id)) {
            book.addPending(new Pending(split, id, now, work.outbox.getOrDefault(id, List.of())));
          }
        }
      }
      book.forgetCovered(context.positions(), context.givenUp());
      book.forgetOlder(now - context.settings().retentionMs());
      return book.encode();
    }

    /** Whether the key's item, with {@code bookkeeping}, is past what DynamoDB holds. */
    boolean tooLarge(KeyWork work, byte[] state, byte[] bookkeeping) {
      return ItemLimit.size(
              context.pipeline(), context.shape().keyedOperator(), work.encoded, state, bookkeeping)
          > ItemLimit.MAX_BYTES;
    }

    /**
     * A key keeps its batch's outputs in its item until they are delivered, and DynamoDB holds 400
     * KB an item: outputs too large to keep beside the key's state would make the key's write fail
     * on every try. With a place for refused outputs, the outputs of the records whose outputs take
     * the most go there instead, one stand-in for each record's, until the item fits; without one,
     * the write's check says so.
     *
     * @return the bookkeeping with the stand-ins
     */
    private byte[] setAsideWhatCannotBeKept(KeyWork work, byte[] state, byte[] bookkeeping) {
      byte[] kept = bookkeeping;
      while (tooLarge(work, state, kept)) {
        String offset = work.setAsideLargestRecord(context.shape().routes(), this::standIn);
        if (offset == null) {
          break;
        }
        if (context.ordered()) {
          work.book.replaceOutbox(
              new Outbox(context.split(), offset, context.now(), work.outbox.get(offset)));
        } else {
          work.book.replacePending(
              new Pending(context.split(), offset, context.now(), work.outbox.get(offset)));
        }
        kept = work.book.encode();
      }
      return kept;
    }

    private Routed standIn(String offset, List<StoredOutput> outputs, Routed first) {
      Routes routes = context.shape().routes();
      long bytes = 0;
      for (StoredOutput output : outputs) {
        bytes += output.value().length;
      }
      return new Routed(
          routes.refused(),
          routes
              .get(routes.refused())
              .record(
                  first.record().id(),
                  context.pipeline(),
                  outputs.get(0).source(),
                  OutputDelivery.withoutValue(
                      first.record(),
                      bytes,
                      "Record "
                          + offset
                          + " of "
                          + context.split()
                          + " made "
                          + outputs.size()
                          + " output(s) of "
                          + bytes
                          + " bytes in all, more than its key's item keeps beside the key's state"
                          + " until they are delivered (DynamoDB's 400 KB an item), so none was"
                          + " kept: this stands for them all, under the first's id. The stream"
                          + " keeps the record for its retention. Send large data elsewhere"
                          + " (e.g. S3) and a reference through the output")));
    }
  }

  static List<Routed> all(Map<String, KeyWork> works) {
    int size = 0;
    for (KeyWork work : works.values()) {
      size += work.deliveries.size();
    }
    List<Routed> all = new ArrayList<>(size);
    works.values().forEach(work -> all.addAll(work.deliveries));
    return all;
  }
}
