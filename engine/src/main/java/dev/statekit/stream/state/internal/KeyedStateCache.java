package dev.statekit.stream.state.internal;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.StateTable.StateWrite;
import dev.statekit.stream.state.StoredState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The working state of one operator on one worker: a hash map from key to {@link KeyEntry}, read
 * through from the table on a miss and written behind at checkpoints. Only keys changed since the
 * last flush are written, each with the version a restore would read now as its previous slot.
 */
final class KeyedStateCache implements KeyedStateStore {
  private final StateTable table;
  private final String scope;
  private final Serde<Object> keySerde;
  private final Serde<Object> namespaceSerde;
  private final int maxKeys;
  private final List<StateSpec<?>> specs = new ArrayList<>();
  private EntryCodec codec;
  private CheckpointLineage lineage;
  private boolean mayBeStored;

  private final KeyEntryMap entries = new KeyEntryMap();
  private final ArrayList<KeyEntry> dirty = new ArrayList<>();
  private final ArrayList<KeyEntry> flushed = new ArrayList<>();
  private final ArrayList<KeyEntry> emptied = new ArrayList<>();

  private KeyEntry current;
  private Object namespace = NO_NAMESPACE;

  KeyedStateCache(
      StateTable table,
      String scope,
      Serde<Object> keySerde,
      Serde<Object> namespaceSerde,
      CheckpointLineage lineage,
      int maxKeys) {
    this.table = table;
    this.scope = scope;
    this.keySerde = keySerde;
    this.namespaceSerde = namespaceSerde;
    this.lineage = lineage;
    this.maxKeys = maxKeys;
    this.mayBeStored = lineage.latestComplete() > 0;
    // A keyed function may declare no state at all: keying then only partitions its records.
    this.codec = new EntryCodec(List.of(), namespaceSerde);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <S> S register(StateSpec<S> spec) {
    if (!entries.isEmpty()) {
      throw new IllegalStateException(
          "Register " + spec + " before the first key is used (in the operator's open)");
    }
    for (StateSpec<?> known : specs) {
      if (known.name().equals(spec.name())) {
        throw new IllegalArgumentException(
            "Two states are named '" + spec.name() + "' in one operator: give each its own name");
      }
    }
    int index = specs.size();
    specs.add(spec);
    codec = new EntryCodec(List.copyOf(specs), namespaceSerde);
    return (S)
        switch (spec.kind()) {
          case VALUE -> new StateHandles.Value<>(this, index);
          case LIST -> new StateHandles.ListOf<>(this, index);
          case MAP -> new StateHandles.MapOf<>(this, index);
        };
  }

  @Override
  public void setCurrentKey(Object key) {
    KeyEntry entry = entries.get(key);
    if (entry == null) {
      entry = mayBeStored ? loadOne(key) : newEntry(key);
    }
    current = entry;
    namespace = NO_NAMESPACE;
  }

  @Override
  public Object currentKey() {
    return current == null ? null : current.key;
  }

  @Override
  public void setNamespace(Object namespace) {
    this.namespace = namespace;
  }

  @Override
  public Collection<Object> namespaces() {
    if (current == null || current.spaces == null) {
      return List.of();
    }
    List<Object> live = new ArrayList<>(current.spaces.size());
    current.spaces.forEach(
        (ns, space) -> {
          if (!KeyEntry.allNull(space)) {
            live.add(ns);
          }
        });
    return live;
  }

  @Override
  public boolean wantsPrefetch() {
    return mayBeStored;
  }

  @Override
  public void prefetch(Collection<?> keys) {
    if (!mayBeStored) {
      return;
    }
    List<Object> missing = new ArrayList<>();
    for (Object key : keys) {
      if (entries.get(key) == null) {
        missing.add(key);
      }
    }
    if (!missing.isEmpty()) {
      load(missing);
    }
  }

  private Map<Object, KeyEntry> load(Collection<Object> keys) {
    Map<String, Object> byEncoded = new LinkedHashMap<>();
    for (Object key : keys) {
      byEncoded.put(encodeKey(key), key);
    }
    Map<String, StoredState> items = table.read(scope, byEncoded.keySet());
    Map<Object, KeyEntry> loaded = new HashMap<>();
    byEncoded.forEach((encoded, key) -> loaded.put(key, loaded(key, encoded, items.get(encoded))));
    return loaded;
  }

  /**
   * One key, as {@link #load} does it: a batch run on Lambda loads its keys one by one, and the
   * maps {@link #load} builds for many were a tenth of its work.
   */
  private KeyEntry loadOne(Object key) {
    String encoded = encodeKey(key);
    return loaded(key, encoded, table.read(scope, List.of(encoded)).get(encoded));
  }

  private KeyEntry loaded(Object key, String encoded, StoredState item) {
    KeyEntry entry = newEntry(key);
    if (item != null) {
      entry.validVersion = item.versionAsOf(lineage);
      entry.validBytes = item.valueAsOf(lineage);
      if (entry.validBytes != null && !reuse(encoded, entry)) {
        codec.decode(entry.validBytes, entry);
      }
    }
    return entry;
  }

  /** Takes the entry's values from the table's decoded copy of its bytes, if it has one. */
  private boolean reuse(String encoded, KeyEntry entry) {
    if (!(table instanceof DecodedStates decoded)) {
      return false;
    }
    DecodedState taken = decoded.take(scope, encoded, entry.validBytes);
    if (taken == null
        || !taken.scope.equals(scope)
        || taken.entry.slots.length != specs.size()
        || !taken.entry.key.equals(entry.key)) {
      return false;
    }
    entry.slots = taken.entry.slots;
    entry.spaces = taken.entry.spaces;
    entry.borrowed = taken.entry.borrowed;
    return true;
  }

  private KeyEntry newEntry(Object key) {
    KeyEntry entry = new KeyEntry(key, specs.size());
    entries.add(entry);
    return entry;
  }

  /** The current space, for a handle about to change it: the entry's own, if it was borrowed. */
  Object[] spaceToChange(boolean create) {
    if (current != null) {
      current.own();
    }
    return space(create);
  }

  Object[] space(boolean create) {
    if (current == null) {
      throw new IllegalStateException("No current key: state is only available for keyed records");
    }
    return namespace == NO_NAMESPACE ? current.slots : current.space(namespace, create);
  }

  /** A slot of {@code space} was cleared: drops the namespace once all its slots are. */
  void cleared(Object[] space) {
    markDirty();
    if (namespace != NO_NAMESPACE && current.spaces != null && KeyEntry.allNull(space)) {
      current.spaces.remove(namespace);
      if (current.spaces.isEmpty()) {
        current.spaces = null;
      }
    }
  }

  void markDirty() {
    if (!current.dirty) {
      current.dirty = true;
      dirty.add(current);
    }
  }

  @Override
  public void flush(long checkpointId) {
    DecodedStates decoded = table instanceof DecodedStates d ? d : null;
    List<StateWrite> writes = new ArrayList<>(dirty.size() + emptied.size());
    for (KeyEntry gone : emptied) {
      // A key emptied at a complete checkpoint: its item can go unless the key is live again.
      if (entries.get(gone.key) == null) {
        writes.add(new StateWrite(encodeKey(gone.key), null));
      }
    }
    emptied.clear();
    for (KeyEntry entry : dirty) {
      byte[] bytes = codec.encode(entry);
      entry.dirty = false;
      if (bytes == null && entry.validBytes == null) {
        continue;
      }
      writes.add(
          new StateWrite(
              encodeKey(entry.key),
              new StoredState(checkpointId, bytes, entry.validVersion, entry.validBytes)));
      entry.pendingVersion = checkpointId;
      entry.pendingBytes = bytes;
      flushed.add(entry);
    }
    dirty.clear();
    if (!writes.isEmpty()) {
      table.write(scope, writes);
    }
    if (decoded != null) {
      entries.forEach(
          entry -> {
            byte[] now =
                entry.pendingVersion == checkpointId ? entry.pendingBytes : entry.validBytes;
            if (now != null) {
              decoded.flushed(scope, encodeKey(entry.key), new DecodedState(scope, entry), now);
            }
          });
    }
  }

  @Override
  public void checkpointComplete(long checkpointId) {
    lineage = lineage.completedUpTo(checkpointId);
    for (KeyEntry entry : flushed) {
      if (entry.pendingVersion == checkpointId) {
        entry.validVersion = checkpointId;
        entry.validBytes = entry.pendingBytes;
        entry.pendingVersion = 0;
        entry.pendingBytes = null;
        if (entry.validBytes == null && !entry.dirty) {
          entries.remove(entry.key);
          emptied.add(entry);
        }
      }
    }
    flushed.clear();
    if (entries.size() > maxKeys) {
      entries.removeIf(e -> !e.dirty && e.pendingVersion == 0 && e != current);
      mayBeStored = true;
    }
  }

  @Override
  public int cachedKeys() {
    return entries.size();
  }

  private String encodeKey(Object key) {
    return StateKeys.encode(key, keySerde);
  }
}
