package dev.statekit.stream.state.internal;

import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.StoredState;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A table holding key "a" at version 1 with {@code bytes}, whose decoded copy is always {@code
 * lender}'s, lent: what a batch sees while a window fire has the key's state on loan.
 */
record LendingTable(DecodedState lender, byte[] bytes) implements StateTable, DecodedStates {
  @Override
  public Map<String, StoredState> read(String scope, Collection<String> keys) {
    return keys.contains("a") ? Map.of("a", new StoredState(1, bytes, 0, null)) : Map.of();
  }

  @Override
  public void write(String scope, List<StateWrite> writes) {}

  @Override
  public Map<String, byte[]> readCollection(String collection) {
    return Map.of();
  }

  @Override
  public void writeCollection(
      String collection, Map<String, byte[]> puts, Collection<String> deletes) {}

  @Override
  public DecodedState take(String scope, String key, byte[] bytes) {
    return lender.borrow();
  }

  @Override
  public void flushed(String scope, String key, DecodedState state, byte[] bytes) {}
}
