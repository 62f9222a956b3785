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
   * A view of this state for a store that will most likely only read it (a window fired from the
   * index): it shares the slots until the store first changes one, then copies them (and the lists
   * and maps of list and map states) for itself. This state must not change while the view is in
   * use: its holder lends it and takes it back ({@code DecodedItems}).
   */
  public DecodedState borrow() {
    KeyEntry view = new KeyEntry(entry);
    view.spaces = entry.spaces;
    view.borrowed = true;
    return new DecodedState(scope, view);
  }

  /** Whether this is a view of another's state ({@link #borrow}) that has not copied it yet. */
  public boolean borrowed() {
    return entry.borrowed;
  }
}
