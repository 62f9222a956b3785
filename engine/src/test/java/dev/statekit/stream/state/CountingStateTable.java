package dev.statekit.stream.state;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Counts the items read and written through a table, and the bytes of collection items put. */
public final class CountingStateTable implements StateTable {
  final StateTable inner;
  final AtomicInteger readCalls = new AtomicInteger();
  final AtomicInteger itemsRead = new AtomicInteger();
  final AtomicInteger itemsWritten = new AtomicInteger();

  /** Bytes of collection items put (window timers). */
  public final AtomicLong collectionBytesPut = new AtomicLong();

  /** Counts what goes through to {@code inner}. */
  public CountingStateTable(StateTable inner) {
    this.inner = inner;
  }

  @Override
  public Map<String, StoredState> read(String scope, Collection<String> keys) {
    readCalls.incrementAndGet();
    itemsRead.addAndGet(keys.size());
    return inner.read(scope, keys);
  }

  @Override
  public void write(String scope, List<StateWrite> writes) {
    itemsWritten.addAndGet(writes.size());
    inner.write(scope, writes);
  }

  @Override
  public Map<String, byte[]> readCollection(String collection) {
    return inner.readCollection(collection);
  }

  @Override
  public void writeCollection(
      String collection, Map<String, byte[]> puts, Collection<String> deletes) {
    itemsWritten.addAndGet(puts.size() + deletes.size());
    puts.values().forEach(bytes -> collectionBytesPut.addAndGet(bytes.length));
    inner.writeCollection(collection, puts, deletes);
  }
}
