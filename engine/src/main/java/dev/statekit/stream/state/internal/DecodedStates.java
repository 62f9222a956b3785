package dev.statekit.stream.state.internal;

/**
 * What a {@link dev.statekit.stream.state.StateTable} may also do: keep keys' states decoded
 * between uses. A store over such a table asks it for the decoded state before decoding bytes it
 * read, and reports the state of every key it used when it flushes.
 */
public interface DecodedStates {
  /**
   * The state of {@code key} decoded from exactly {@code bytes} (the bytes the table just served
   * for it), or null if the table keeps none that it knows to match; the caller owns what it gets.
   */
  DecodedState take(String scope, String key, byte[] bytes);

  /**
   * At a flush: {@code state} is {@code key}'s state in memory, and {@code bytes} its encoding (the
   * bytes just written for it, or read if it did not change). The table may keep it for a later
   * {@link #take} of those bytes; the store no longer uses it.
   */
  void flushed(String scope, String key, DecodedState state, byte[] bytes);
}
