package dev.statekit.stream.state.internal;

/**
 * One key's state as an operator left it in memory, handed from one use of the key to the next so
 * that the next need not decode its bytes again. Opaque outside this package; whoever holds it owns
 * its mutable values (a state store that takes it uses them as its own).
 */
public final class DecodedState {
  final String scope;
  final KeyEntry entry;

  DecodedState(String scope, KeyEntry entry) {
    this.scope = scope;
    this.entry = entry;
  }

  /**
   * A copy that shares the state's values but not their slots: a store that takes it may set, clear
   * and add states without changing this one, though not change a value object in place.
   */
  public DecodedState shallowCopy() {
    KeyEntry copy = new KeyEntry(entry.key, entry.slots.length);
    copy.slots = entry.slots.clone();
    if (entry.spaces != null) {
      copy.spaces = new java.util.HashMap<>(entry.spaces.size() * 2);
      entry.spaces.forEach((namespace, space) -> copy.spaces.put(namespace, space.clone()));
    }
    return new DecodedState(scope, copy);
  }
}
