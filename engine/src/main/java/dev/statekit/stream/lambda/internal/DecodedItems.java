package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.state.internal.DecodedState;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Key items this process wrote, kept decoded (the operator's state in memory and the key's {@link
 * KeyBook}), so that the key's next batch in this process skips decoding them: least recently used
 * evicted, as {@link ItemCache}.
 *
 * <p>A decoded copy is used only for the item it was made from: same version <em>and</em> the same
 * bytes, checked against the item the batch actually uses (cached or read fresh). So a copy gone
 * stale (another instance wrote the key since, a retried batch, an environment restored from a
 * snapshot) is never used: the batch decodes the item it has, and its write, conditional on that
 * item's version, decides as before. A copy is taken, not shared: the batch that takes it changes
 * it in place, and only a write that succeeded puts the result back; any failure (a record that
 * fails, a write that conflicts or throws, a crash) leaves nothing here for the key.
 */
final class DecodedItems {
  private static final class Entry {
    final long version;
    final byte[] state;
    final byte[] bookkeeping;
    DecodedState decoded;
    KeyBook book;

    /** Views of {@link #decoded} lent to passes that fire windows from the index, not yet back. */
    int lent;

    Entry(long version, byte[] state, DecodedState decoded, byte[] bookkeeping, KeyBook book) {
      this.version = version;
      this.state = state;
      this.decoded = decoded;
      this.bookkeeping = bookkeeping;
      this.book = book;
    }

    boolean matches(long itemVersion, byte[] itemBytes, byte[] ownBytes) {
      return version == itemVersion
          && (ownBytes == itemBytes || Arrays.equals(ownBytes, itemBytes));
    }
  }

  private final Map<String, Entry> entries;

  DecodedItems(int maxKeys) {
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > maxKeys;
          }
        };
  }

  /** The decoded state of {@code key}'s item at {@code version} with {@code state}, or null. */
  synchronized DecodedState takeState(String key, long version, byte[] state) {
    Entry entry = entries.get(key);
    if (entry == null || entry.decoded == null || !entry.matches(version, state, entry.state)) {
      return null;
    }
    // A pass may still be reading a view of it (another split's batch, on another thread): the
    // taker gets a view too then, which copies the state before its first change.
    DecodedState taken = entry.lent > 0 ? entry.decoded.borrow() : entry.decoded;
    entry.decoded = null;
    dropIfEmpty(key, entry);
    return taken;
  }

  /**
   * A view of the decoded state of {@code key}'s item at {@code version} with {@code state}, or
   * null; the state stays here. For a pass that will not write the key (a window fired from the
   * index): the item stays as it is, and so does what this holds for it. The view copies the state
   * only if the pass changes it ({@link DecodedState#borrow}); the pass hands it back ({@link
   * Loan#giveBack}) when it no longer reads it, and until then a batch that takes the state gets a
   * copy.
   */
  synchronized Loan lendState(String key, long version, byte[] state) {
    Entry entry = entries.get(key);
    if (entry == null || entry.decoded == null || !entry.matches(version, state, entry.state)) {
      return null;
    }
    entry.lent++;
    return new Loan(entry, entry.decoded.borrow());
  }

  /** A view lent by {@link #lendState}. */
  final class Loan {
    private final Entry entry;
    final DecodedState view;
    private boolean back;

    private Loan(Entry entry, DecodedState view) {
      this.entry = entry;
      this.view = view;
    }

    /** The pass reads the view no more. */
    void giveBack() {
      synchronized (DecodedItems.this) {
        if (!back) {
          back = true;
          entry.lent--;
        }
      }
    }
  }

  /** The decoded bookkeeping of {@code key}'s item at {@code version}, or null. */
  synchronized KeyBook takeBook(String key, long version, byte[] bookkeeping) {
    Entry entry = entries.get(key);
    if (entry == null
        || entry.book == null
        || !entry.matches(version, bookkeeping, entry.bookkeeping)) {
      return null;
    }
    KeyBook taken = entry.book;
    entry.book = null;
    dropIfEmpty(key, entry);
    return taken;
  }

  /**
   * Keeps what a successful write left: the item's new {@code version}, its bytes and their decoded
   * forms (either may be null if not known).
   */
  synchronized void put(
      String key,
      long version,
      byte[] state,
      DecodedState decoded,
      byte[] bookkeeping,
      KeyBook book) {
    if (decoded != null && decoded.borrowed()) {
      decoded = null; // another's state, lent: never kept as this key's
    }
    if (decoded == null && book == null) {
      entries.remove(key);
      return;
    }
    entries.put(key, new Entry(version, state, decoded, bookkeeping, book));
  }

  synchronized void remove(String key) {
    entries.remove(key);
  }

  private void dropIfEmpty(String key, Entry entry) {
    if (entry.decoded == null && entry.book == null) {
      entries.remove(key);
    }
  }
}
