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
}
