package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.internal.BatchWindowOperator.Opened;
import dev.statekit.stream.lambda.internal.SourceOutcome.Routed;
import dev.statekit.stream.state.internal.DecodedState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One key's part of a batch: what it read, applied, emitted and will write. */
final class KeyWork {
  final Object key;
  final String encoded;
  final KeyItem item;

  /** What the key records beside its state; null for a key without records in the batch. */
  final KeyBook book;

  final boolean touched;

  /** The key's state in memory after the batch, as its write encodes it (null if not known). */
  DecodedState decoded;

  /** Ordered splits: the offset of the last record this split applied before the batch. */
  String threshold;

  /** Ordered splits: the offset of the last record the batch applied. */
  String lastApplied;

  /** Unordered splits: the message ids the batch applied. */
  final Set<String> appliedIds = new LinkedHashSet<>();

  /** Unordered splits: the message ids the key had applied before, handed over again. */
  final Set<String> repeatedIds = new LinkedHashSet<>();

  /** Unordered splits: the outputs of repeated messages, delivered again, by message id. */
  final Map<String, List<StoredOutput>> again = new LinkedHashMap<>();

  /**
   * Unordered splits: why repeated messages go back, by message id: their kept outputs name an
   * output this deployment lacks. Null while none does.
   */
  Map<String, String> missing;

  /** The per-record outputs of the batch, by source offset: kept in the outbox. */
  final Map<String, List<StoredOutput>> outbox = new LinkedHashMap<>();

  /**
   * About the bytes {@link #outbox} adds to the key's bookkeeping, as {@link KeyBook} writes it.
   */
  int outboxBytes;

  /** Outputs of earlier records among {@link #outbox} (they may have been delivered already). */
  private Set<StoredOutput> carried;

  /** Offsets of records whose outputs were set aside ({@link #setAsideLargestRecord}). */
  private Set<String> setAside;

  /**
   * About the bytes of outputs the key keeps from before this batch ({@link KeyBook#keptBytes}).
   */
  int keptBytes;

  /** The source record of the first input the key applied in this batch, or -1. */
  int firstSource = -1;

  /** Everything to deliver for this key: earlier outputs again, new outputs, window results. */
  final List<Routed> deliveries = new ArrayList<>();

  final List<Opened> opened = new ArrayList<>();
  int applied;
  int repeats;
  int late;
  int fired;
  KeyWrite write;

  KeyWork(Object key, String encoded, KeyItem item, KeyBook book, boolean touched) {
    this.key = key;
    this.encoded = encoded;
    this.item = item;
    this.book = book;
    this.touched = touched;
  }

  void missing(String id, String why) {
    if (missing == null) {
      missing = new LinkedHashMap<>(2);
    }
    missing.put(id, why);
  }

  /**
   * Results among {@link #deliveries} of windows fired from memory, with their windows: a firing
   * that stops short of the watermark takes back those after where it stops. Null until a window
   * fires.
   */
  private List<WindowResult> windowResults;

  private record WindowResult(TimeWindow window, Routed routed) {}

  /** A result of {@code window}. */
  void windowResult(TimeWindow window, Routed routed) {
    deliveries.add(routed);
    if (windowResults == null) {
      windowResults = new ArrayList<>(2);
    }
    windowResults.add(new WindowResult(window, routed));
  }

  /**
   * Takes back what windows ending after {@code through} emitted: they fire in a later round, once,
   * with whatever reaches them meanwhile.
   */
  void keepFiredThrough(long through) {
    if (windowResults == null) {
      return;
    }
    Set<Routed> taken = Collections.newSetFromMap(new IdentityHashMap<>());
    Set<TimeWindow> windows = new HashSet<>();
    windowResults.removeIf(
        result -> {
          if (result.window().maxTimestamp() <= through) {
            return false;
          }
          taken.add(result.routed());
          windows.add(result.window());
          return true;
        });
    deliveries.removeIf(taken::contains);
    fired -= windows.size();
  }

  /**
   * Outputs of earlier records, delivered again with this batch and kept as outputs of its record
   * at {@code offset} of {@code split}.
   */
  void carry(String split, String offset, List<StoredOutput> outputs) {
    List<StoredOutput> kept = outboxAt(split, offset);
    if (carried == null) {
      carried = Collections.newSetFromMap(new IdentityHashMap<>());
    }
    for (StoredOutput output : outputs) {
      outboxBytes += output.size(last(kept));
      kept.add(output);
      carried.add(output);
    }
  }

  /** The stand-in for the outputs of one record that the key's item cannot keep. */
  interface StandIn {
    /**
     * @param offset the offset of the record that made the outputs
     * @param outputs the outputs, in the order they were made
     * @param first the first output as it was to be delivered
     */
    Routed of(String offset, List<StoredOutput> outputs, Routed first);
  }

  /**
   * Sets aside the outputs of the batch's record whose outputs take the most bytes (of those not
   * set aside yet): one stand-in replaces them in the outbox and among the deliveries. Outputs of
   * earlier records carried into this batch stay.
   *
   * @return the record's offset, or null if none is left
   */
  String setAsideLargestRecord(Routes routes, StandIn standIn) {
    String largest = null;
    long largestBytes = 0;
    for (Map.Entry<String, List<StoredOutput>> entry : outbox.entrySet()) {
      if (setAside != null && setAside.contains(entry.getKey())) {
        continue;
      }
      long bytes = 0;
      StoredOutput before = null;
      for (StoredOutput output : entry.getValue()) {
        bytes += isCarried(output) ? 0 : output.size(before);
        before = output;
      }
      if (bytes > largestBytes) {
        largest = entry.getKey();
        largestBytes = bytes;
      }
    }
    if (largest == null) {
      return null;
    }
    List<StoredOutput> kept = outbox.get(largest);
    List<StoredOutput> fresh = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (StoredOutput output : kept) {
      if (!isCarried(output)) {
        fresh.add(output);
        ids.add(deliveryOf(output));
      }
    }
    int at = -1;
    for (int i = 0; i < deliveries.size() && at < 0; i++) {
      Routed routed = deliveries.get(i);
      if (ids.contains(deliveryOf(routes, routed))) {
        at = i;
      }
    }
    if (setAside == null) {
      setAside = new HashSet<>();
    }
    setAside.add(largest);
    if (at < 0) {
      return largest;
    }
    Routed replaced = standIn.of(largest, fresh, deliveries.get(at));
    deliveries.removeIf(r -> ids.contains(deliveryOf(routes, r)));
    deliveries.add(at, replaced);
    StoredOutput stored =
        StoredOutput.of(routes.name(replaced.route()), fresh.get(0).source(), replaced.record());
    kept.removeIf(o -> !isCarried(o));
    outboxBytes += stored.size(last(kept)) - (int) largestBytes;
    kept.add(stored);
    return largest;
  }

  private boolean isCarried(StoredOutput output) {
    return carried != null && carried.contains(output);
  }

  /** A per-record output of the record at {@code offset} of {@code split}. */
  void output(Routes routes, String split, String offset, Routed routed) {
    deliveries.add(routed);
    StoredOutput output =
        StoredOutput.of(routes.name(routed.route()), String.valueOf(key), routed.record());
    List<StoredOutput> kept = outboxAt(split, offset);
    outboxBytes += output.size(last(kept));
    kept.add(output);
  }

  /**
   * Does not deliver now the outputs of messages {@code offsets}, which go back though the key
   * applied them (in this batch: kept in its outbox; before: pending, delivered again): they go out
   * when the messages come again.
   */
  void holdBack(Set<String> offsets, Routes routes) {
    Set<String> ids = new HashSet<>();
    for (String offset : offsets) {
      outbox.getOrDefault(offset, List.of()).forEach(output -> ids.add(deliveryOf(output)));
      again.getOrDefault(offset, List.of()).forEach(output -> ids.add(deliveryOf(output)));
    }
    if (!ids.isEmpty()) {
      deliveries.removeIf(r -> ids.contains(deliveryOf(routes, r)));
    }
  }

  /** What tells a kept output's delivery from the others: its output's name and its id. */
  private static String deliveryOf(StoredOutput output) {
    return output.route() + "/" + output.id();
  }

  /** {@link #deliveryOf(StoredOutput)} of a delivery. */
  private static String deliveryOf(Routes routes, Routed routed) {
    return routes.name(routed.route()) + "/" + routed.record().id();
  }

  private static StoredOutput last(List<StoredOutput> outputs) {
    return outputs.isEmpty() ? null : outputs.get(outputs.size() - 1);
  }

  /** The outputs kept as the record at {@code offset}'s, counted in {@link #outboxBytes}. */
  private List<StoredOutput> outboxAt(String split, String offset) {
    List<StoredOutput> outputs = outbox.get(offset);
    if (outputs == null) {
      outputs = new ArrayList<>(1);
      outbox.put(offset, outputs);
      outboxBytes += KeyBook.entrySize(split, offset);
    }
    return outputs;
  }
}
