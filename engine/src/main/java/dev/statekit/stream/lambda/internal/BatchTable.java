package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.StoredState;
import dev.statekit.stream.state.internal.DecodedState;
import dev.statekit.stream.state.internal.DecodedStates;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The state table under a batch's keyed state: serves the key items read for the batch, and keeps
 * what the operators' state flushes instead of writing it, so that the batch writes each key once,
 * with its bookkeeping, on the version it read. Serves decoded states from {@link DecodedItems}
 * where it holds them for the very items read, and keeps what the operators leave in memory, for
 * the keys written to put back.
 */
final class BatchTable implements StateTable, DecodedStates {
  private record Left(DecodedState state, byte[] bytes) {}

  private final Map<String, KeyItem> items;
  private final DecodedItems decoded;
  private final java.util.Set<String> writing;
  private final Map<String, byte[]> written = new HashMap<>();
  private final Map<String, Left> left = new HashMap<>();
  private final java.util.List<DecodedItems.Loan> loans = new java.util.ArrayList<>();

  /**
   * The table of {@code items}; {@code decoded} is null to decode every item. The keys of {@code
   * writing} (those with records in the pass) take their decoded state; the others (windows fired
   * from the index, never written by the pass) get a view, given back when the pass ends ({@link
   * #giveBack}), and leave the state for their next batch.
   */
  BatchTable(Map<String, KeyItem> items, DecodedItems decoded, java.util.Set<String> writing) {
    this.items = items;
    this.decoded = decoded;
    this.writing = writing;
  }

  @Override
  public Map<String, StoredState> read(String scope, Collection<String> keys) {
    if (keys.size() == 1) {
      // How a batch's keyed state reads: key by key, as records and windows come.
      String key = keys.iterator().next();
      KeyItem item = items.get(key);
      return item == null || item.state() == null
          ? Map.of()
          : Map.of(key, new StoredState(1, item.state(), 0, null));
    }
    Map<String, StoredState> found = new HashMap<>(Sized.capacity(keys.size()));
    for (String key : keys) {
      KeyItem item = items.get(key);
      if (item != null && item.state() != null) {
        found.put(key, new StoredState(1, item.state(), 0, null));
      }
    }
    return found;
  }

  @Override
  public void write(String scope, List<StateWrite> writes) {
    for (StateWrite write : writes) {
      written.put(write.key(), write.state() == null ? null : write.state().value());
    }
  }

  // Batch runs keep window timers in the pipeline's timer index (TimerCodec), never in collections.
  @Override
  public Map<String, byte[]> readCollection(String collection) {
    throw new UnsupportedOperationException(
        "A batch's state table keeps no collections: window timers go to the timer index");
  }

  @Override
  public void writeCollection(
      String collection, Map<String, byte[]> puts, Collection<String> deletes) {
    throw new UnsupportedOperationException(
        "A batch's state table keeps no collections: window timers go to the timer index");
  }

  @Override
  public DecodedState take(String scope, String key, byte[] bytes) {
    KeyItem item = items.get(key);
    if (decoded == null || item == null || item.state() != bytes) {
      return null;
    }
    if (writing.contains(key)) {
      return decoded.takeState(key, item.version(), bytes);
    }
    DecodedItems.Loan loan = decoded.lendState(key, item.version(), bytes);
    if (loan == null) {
      return null;
    }
    loans.add(loan);
    return loan.view;
  }

  /** Gives back the views of states this table lent out: the pass reads them no more. */
  void giveBack() {
    loans.forEach(DecodedItems.Loan::giveBack);
    loans.clear();
  }

  @Override
  public void flushed(String scope, String key, DecodedState state, byte[] bytes) {
    left.put(key, new Left(state, bytes));
  }

  /** The key's state in memory after the batch, if it is what {@code bytes} encode; else null. */
  DecodedState leftAs(String key, byte[] bytes) {
    Left state = left.get(key);
    return state != null && state.bytes() == bytes ? state.state() : null;
  }

  /** The key's state after the batch: as flushed, or as read if it did not change. */
  byte[] stateOf(String key) {
    if (written.containsKey(key)) {
      return written.get(key);
    }
    KeyItem item = items.get(key);
    return item == null ? null : item.state();
  }
}
