package dev.statekit.stream.lambda.simulation;

import dev.statekit.StateKitException.Reason;
import dev.statekit.stream.lambda.Attempt;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.DeferredMessage;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.state.StateStoreException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A model of the batch store on DynamoDB, with DynamoDB's own limits and failures rather than an
 * adapter that accepts anything: items over 400 KB (sized as DynamoDB sizes them) are refused; key
 * writes go as BatchExecuteStatement requests of at most 25 statements, each conditional on its
 * version and succeeding, conflicting or being throttled on its own; batch writes of 25 items may
 * leave some unprocessed; any request may be throttled past the adapter's retries (the store then
 * reports {@code UNAVAILABLE} with part of the work done), and an invocation may die right after a
 * request was applied, before its answer. Reads are strongly consistent, as the store asks.
 */
final class SimulatedDynamoDb implements BatchStore {
  static final int STATEMENTS_PER_REQUEST = 25;
  static final int ITEMS_PER_BATCH_WRITE = 25;

  private final InMemoryBatchStore data;
  private final Faults faults;
  private final Turns turns;
  private final Trace trace;
  private final Map<String, Integer> largestKeyItem = new HashMap<>();
  int requests;

  /**
   * Writes in flight when their invocation died ({@code -Dsimulation.lateWrites=true}), or null
   * when the fault is off: see {@link LateWrites}.
   */
  private final LateWrites late;

  SimulatedDynamoDb(Clock clock, Faults faults, Turns turns, Trace trace) {
    this(clock, faults, turns, trace, null);
  }

  SimulatedDynamoDb(Clock clock, Faults faults, Turns turns, Trace trace, LateWrites late) {
    this.data = new InMemoryBatchStore(clock);
    this.faults = faults;
    this.turns = turns;
    this.trace = trace;
    this.late = late;
  }

  /**
   * The invocation dies with this write request sent and not answered, if the late-write fault
   * picks it: the request is held and applied later ({@link LateWrites#land}), its conditions
   * evaluated against the items as they are when it lands, and the invocation goes no further.
   */
  private void maybeInFlight(String call, Runnable apply) {
    if (late != null && late.hold(call, apply)) {
      throw new Crash("with " + call + " in flight");
    }
  }

  /** The largest key item written, per key, in bytes as DynamoDB counts them. */
  Map<String, Integer> largestKeyItems() {
    return largestKeyItem;
  }

  /** The store without faults, for checking at the end. */
  BatchStore quiet() {
    return data;
  }

  private void enter(String call) {
    turns.yieldTurn();
    if (late != null) {
      late.land(false); // any request of another invocation may come after a late write lands
    }
    requests++;
    if (faults.throttled()) {
      trace.add("table throttles " + call);
      throw new StateStoreException(
          Reason.UNAVAILABLE, "simulated: " + call + " throttled past the adapter's retries");
    }
  }

  private void answered(String call) {
    if (faults.chance(faults.crashAfterCall)) {
      trace.add("crash after " + call + " was applied");
      throw new Crash("after " + call);
    }
  }

  @Override
  public Map<String, KeyItem> readKeys(String pipeline, String operator, Collection<String> keys) {
    enter("BatchGetItem of " + keys.size() + " keys");
    return data.readKeys(pipeline, operator, keys);
  }

  @Override
  public Set<String> writeKeys(String pipeline, String operator, List<KeyWrite> writes) {
    Set<String> conflicts = new HashSet<>();
    RuntimeException failure = null;
    for (int from = 0; from < writes.size(); from += STATEMENTS_PER_REQUEST) {
      List<KeyWrite> request =
          writes.subList(from, Math.min(writes.size(), from + STATEMENTS_PER_REQUEST));
      try {
        enter("BatchExecuteStatement of " + request.size());
      } catch (StateStoreException e) {
        failure = failure == null ? e : failure;
        continue;
      }
      List<KeyWrite> sent = List.copyOf(request);
      maybeInFlight(
          "BatchExecuteStatement of " + sent.size() + " key writes",
          () -> {
            Set<String> lost = data.writeKeys(pipeline, operator, sent);
            for (KeyWrite write : sent) {
              if (!lost.contains(write.key())) {
                largestKeyItem.merge(
                    write.key(), keyItemSize(pipeline, operator, write), Math::max);
              }
            }
            trace.add("  late BatchExecuteStatement: conflicts " + lost);
          });
      List<KeyWrite> applied = new ArrayList<>();
      for (KeyWrite write : request) {
        int size = keyItemSize(pipeline, operator, write);
        if (size > ItemSize.LIMIT) {
          failure =
              new StateStoreException(
                  Reason.INVALID_REQUEST,
                  "simulated: ValidationException, item size " + size + " of key " + write.key());
        } else if (faults.chance(faults.throttle)) {
          trace.add("statement of " + write.key() + " throttled");
          failure =
              failure != null
                  ? failure
                  : new StateStoreException(Reason.UNAVAILABLE, "simulated: statement throttled");
        } else {
          applied.add(write);
        }
      }
      Set<String> lost = data.writeKeys(pipeline, operator, applied);
      conflicts.addAll(lost);
      for (KeyWrite write : applied) {
        if (!lost.contains(write.key())) {
          largestKeyItem.merge(write.key(), keyItemSize(pipeline, operator, write), Math::max);
        }
      }
      answered("BatchExecuteStatement");
    }
    if (failure != null) {
      throw failure;
    }
    return conflicts;
  }

  private static int keyItemSize(String pipeline, String operator, KeyWrite write) {
    ItemSize size =
        new ItemSize()
            .string("pk", "pipe#" + pipeline + "#" + operator + "#" + write.key())
            .string("sk", "batch")
            .number("v", write.expectedVersion() + 1)
            .binary("st", write.state())
            .binary("bk", write.bookkeeping());
    return write.expiresAt() > 0
        ? size.number("expires_at", write.expiresAt()).bytes()
        : size.binary("expires_at", null).bytes();
  }

  @Override
  public List<SplitState> readSplits(String pipeline) {
    enter("Query of the splits");
    return data.readSplits(pipeline);
  }

  @Override
  public boolean writeSplit(String pipeline, SplitState state) {
    enter("PutItem of split " + state.split());
    int gaps = 0;
    for (GivenUp gap : state.givenUp()) {
      gaps += 80 + gap.before().length() + (gap.after() == null ? 0 : gap.after().length());
    }
    int size =
        new ItemSize()
                .string("pk", "pipe#" + pipeline + "#splits")
                .string("sk", state.split())
                .string("pos", state.position())
                .string("ls", state.lastStart())
                .collection("gu", state.givenUp().size(), gaps)
                .bytes()
            + 120;
    if (size > ItemSize.LIMIT) {
      throw new StateStoreException(Reason.INVALID_REQUEST, "simulated: split item " + size);
    }
    maybeInFlight(
        "conditional PutItem of split "
            + state.split()
            + " v"
            + state.version()
            + " at "
            + state.position(),
        () -> trace.add("  late PutItem of a split: " + data.writeSplit(pipeline, state)));
    boolean written = data.writeSplit(pipeline, state);
    answered("PutItem of a split");
    return written;
  }

  @Override
  public void putAttempt(String pipeline, String split, Attempt attempt, long expiresAt) {
    enter("PutItem of an attempt");
    maybeInFlight(
        "PutItem of attempt " + attempt.first() + ".." + attempt.last() + " of " + split,
        () -> data.putAttempt(pipeline, split, attempt, expiresAt));
    data.putAttempt(pipeline, split, attempt, expiresAt);
    answered("PutItem of an attempt");
  }

  @Override
  public boolean putAttemptInOrder(String pipeline, String split, Attempt attempt, long expiresAt) {
    enter("TransactWriteItems of an attempt");
    maybeInFlight(
        "TransactWriteItems of attempt " + attempt.first() + ".." + attempt.last() + " of " + split,
        () ->
            trace.add(
                "  late TransactWriteItems of an attempt: "
                    + data.putAttemptInOrder(pipeline, split, attempt, expiresAt)));
    boolean written = data.putAttemptInOrder(pipeline, split, attempt, expiresAt);
    answered("TransactWriteItems of an attempt");
    return written;
  }

  @Override
  public List<Attempt> latestAttempts(String pipeline, String split, int limit) {
    enter("Query of the attempts");
    return data.latestAttempts(pipeline, split, limit);
  }

  @Override
  public List<Attempt> attempts(String pipeline, String split, String from, String to) {
    enter("Query of the attempts");
    return data.attempts(pipeline, split, from, to);
  }

  @Override
  public Map<String, byte[]> readReceipts(String pipeline, String split, Collection<String> ids) {
    enter("BatchGetItem of " + ids.size() + " receipts");
    return data.readReceipts(pipeline, split, ids);
  }

  @Override
  public void writeReceipts(
      String pipeline, String split, Map<String, byte[]> receipts, long expiresAt) {
    for (byte[] outputs : receipts.values()) {
      if (outputs.length + 200 > ItemSize.LIMIT) {
        throw new StateStoreException(Reason.INVALID_REQUEST, "simulated: receipt too large");
      }
    }
    batchWrite(
        "writing receipts",
        new ArrayList<>(receipts.keySet()),
        part -> {
          Map<String, byte[]> chunk = new HashMap<>();
          part.forEach(id -> chunk.put(id, receipts.get(id)));
          data.writeReceipts(pipeline, split, chunk, expiresAt);
        });
  }

  @Override
  public void putTimers(String pipeline, List<TimerItem> timers) {
    for (TimerItem timer : timers) {
      int size =
          new ItemSize()
              .string("pk", "pipe#" + pipeline + "#timers")
              .string("sk", timer.id())
              .number("min", timer.minTime())
              .number("max", timer.maxTime())
              .binary("t", timer.timers())
              .bytes();
      if (size > ItemSize.LIMIT) {
        throw new StateStoreException(Reason.INVALID_REQUEST, "simulated: timer item " + size);
      }
    }
    batchWrite("writing timers", new ArrayList<>(timers), part -> data.putTimers(pipeline, part));
  }

  @Override
  public List<TimerItem> timersDueBy(String pipeline, long time, int limit) {
    enter("Query of the timer index");
    return data.timersDueBy(pipeline, time, limit);
  }

  @Override
  public void deleteTimers(String pipeline, Collection<String> ids) {
    batchWrite("deleting timers", new ArrayList<>(ids), part -> data.deleteTimers(pipeline, part));
  }

  @Override
  public void putDeferred(String pipeline, String split, List<DeferredMessage> messages) {
    batchWrite(
        "recording deferred messages",
        new ArrayList<>(messages),
        part -> data.putDeferred(pipeline, split, part));
  }

  @Override
  public List<DeferredMessage> deferred(String pipeline, String split, int limit) {
    enter("Query of deferred messages");
    return data.deferred(pipeline, split, limit);
  }

  @Override
  public DeferredMessage lastDeferred(String pipeline, String split) {
    enter("Query of the last deferred message");
    return data.lastDeferred(pipeline, split);
  }

  @Override
  public void deleteDeferred(String pipeline, String split, Collection<String> orders) {
    batchWrite(
        "deleting deferred messages",
        new ArrayList<>(orders),
        part -> data.deleteDeferred(pipeline, split, part));
  }

  private interface Part<T> {
    void apply(List<T> part);
  }

  /** BatchWriteItem requests of 25: throttled whole, or with some items left unprocessed. */
  private <T> void batchWrite(String what, List<T> items, Part<T> apply) {
    RuntimeException failure = null;
    for (int from = 0; from < items.size(); from += ITEMS_PER_BATCH_WRITE) {
      List<T> request = items.subList(from, Math.min(items.size(), from + ITEMS_PER_BATCH_WRITE));
      try {
        enter("BatchWriteItem " + what);
      } catch (StateStoreException e) {
        failure = failure == null ? e : failure;
        continue;
      }
      List<T> sent = List.copyOf(request);
      maybeInFlight("BatchWriteItem " + what + " (" + sent.size() + ")", () -> apply.apply(sent));
      List<T> processed = new ArrayList<>();
      for (T item : request) {
        if (faults.chance(faults.throttle)) {
          failure =
              failure != null
                  ? failure
                  : new StateStoreException(
                      Reason.UNAVAILABLE, "simulated: items left unprocessed " + what);
        } else {
          processed.add(item);
        }
      }
      apply.apply(processed);
      answered("BatchWriteItem " + what);
    }
    if (failure != null) {
      throw failure;
    }
  }
}
