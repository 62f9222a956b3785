package dev.statekit.stream.internal.batch;

import dev.statekit.StateKitException.Reason;
import dev.statekit.stream.state.StateStoreException;

/** DynamoDB's 400 KB item limit, checked before anything of a batch is written. */
final class ItemLimit {
  /** The limit less room for the item's keys and attribute names. */
  static final int MAX_BYTES = 390 * 1024;

  private ItemLimit() {}

  static void check(String pipeline, Object key, byte[] state, byte[] bookkeeping) {
    int size = (state == null ? 0 : state.length) + (bookkeeping == null ? 0 : bookkeeping.length);
    if (size > MAX_BYTES) {
      throw new StateStoreException(
          Reason.INVALID_REQUEST,
          "Key '"
              + key
              + "' of pipeline "
              + pipeline
              + " would keep "
              + size
              + " bytes of state and bookkeeping, over DynamoDB's 400 KB item limit; nothing of"
              + " this batch was written. Keep less per key: aggregate windows instead of"
              + " buffering their values, use smaller windows, or key more finely");
    }
  }
}
