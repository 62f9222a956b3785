package dev.statekit.stream.lambda;

import dev.statekit.stream.state.StateStoreException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a {@link BatchPipeline} keeps what must outlive an invocation: each key's state with its
 * bookkeeping ({@link KeyItem}), each split's position and watermark ({@link SplitState}), and the
 * timer index of open windows ({@link TimerItem}). Writes of keys and splits are conditional on the
 * version read, so concurrent invocations never overwrite each other. {@code DynamoDbBatchStore}
 * keeps them in the application table; {@link InMemoryBatchStore} in this process.
 *
 * <p>Implementations translate their vendor's errors into {@link StateStoreException}, whose {@code
 * reason()} tells throttling and outages ({@code UNAVAILABLE}) from bad requests ({@code
 * INVALID_REQUEST}); a write that loses to another invocation is not an error but a conflict the
 * method answers.
 */
public interface BatchStore {
  /**
   * The most UTF-8 bytes of an encoded key a store must take: DynamoDB's partition key holds 2,048,
   * and {@code DynamoDbBatchStore}'s item key is the pipeline's name and the operator's id (at most
   * 140 bytes together) before the key. A record keyed longer is that record's failure, saying so,
   * not its whole batch's.
   */
  int MAX_KEY_BYTES = 1_024;

  /**
   * Why no store can take the encoded key {@code key}, or null if every store can: past {@link
   * #MAX_KEY_BYTES} in UTF-8, or holding half a character (an unpaired surrogate), which DynamoDB
   * cannot carry in a key.
   */
  static String keyProblem(String key) {
    int half = dev.statekit.stream.state.StateItemLimits.halfCharacterAt(key);
    if (half >= 0) {
      return "its key holds half a character at index "
          + half
          + " (an unpaired surrogate, as cutting a string inside an emoji leaves), which no"
          + " DynamoDB key can hold: cut keys at whole characters (code points)";
    }
    // A character is at most three UTF-8 bytes: a short key needs no encoding to be counted.
    if (key.length() <= MAX_KEY_BYTES / 3) {
      return null;
    }
    int bytes = key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    return bytes <= MAX_KEY_BYTES
        ? null
        : "its key is "
            + bytes
            + " bytes as the state table stores it, past the "
            + MAX_KEY_BYTES
            + " a key can have (DynamoDB's partition key holds 2,048): key by something shorter,"
            + " such as a hash of it";
  }

  /**
   * Reads keys' items, strongly consistent.
   *
   * @param pipeline the pipeline's name
   * @param operator the keyed operator's id
   * @param keys encoded keys
   * @return the items found, by key; keys without an item are absent
   */
  Map<String, KeyItem> readKeys(String pipeline, String operator, Collection<String> keys);

  /**
   * Whether a call waits on I/O (a network round trip), as DynamoDB's do: then a pipeline runs a
   * step's independent calls at once on threads, one round trip per step. A store whose calls
   * return at once (in this process's memory) answers false, and the pipeline runs them one after
   * another on the invoking thread, since threads would add hand-offs and save no waiting. True
   * unless overridden.
   */
  default boolean callsWait() {
    return true;
  }

  /**
   * Writes keys' items, each only if its stored version is still {@link KeyWrite#expectedVersion()}
   * (0: only if it has no item). The writes are independent: some may succeed while others
   * conflict.
   *
   * @return the keys whose condition failed (another invocation wrote them meanwhile); nothing was
   *     written for them
   */
  Set<String> writeKeys(String pipeline, String operator, List<KeyWrite> writes);

  /** Every split's state and the tick's, strongly consistent. */
  List<SplitState> readSplits(String pipeline);

  /**
   * Records that a batch of ordered split {@code split} is being attempted (an attempt with the
   * same first offset is replaced).
   *
   * @param expiresAt when it may be deleted, epoch seconds
   */
  void putAttempt(String pipeline, String split, Attempt attempt, long expiresAt);

  /**
   * Records the attempt of the batch Lambda hands over in its shard's order, as {@link #putAttempt}
   * does, only if no batch of {@code split} starting after {@code attempt.first()} was recorded by
   * this method: the check and the record are one atomic write. An invocation may die with this
   * write in flight, and DynamoDB may apply it after Lambda gave the batch up and the shard's next
   * batch looked for attempts before it: recorded then, it would pass for a batch that applied its
   * records, and the records of a batch no invocation applied would be refused their replay.
   * Refused, a late request leaves the batch given up before any attempt, and its replay applies
   * it; a live invocation refused runs a batch behind another of its shard (batches that
   * interleave, as with ParallelizationFactor above 1) and records its attempt with {@link
   * #putAttempt}, so that the batches after it notice its records, before the batch is refused.
   *
   * @param expiresAt when it may be deleted, epoch seconds
   * @return false if a batch starting after it was recorded; nothing was written
   */
  boolean putAttemptInOrder(String pipeline, String split, Attempt attempt, long expiresAt);

  /**
   * The latest attempts of {@code split}, by first offset, latest first, strongly consistent.
   *
   * @param limit at most this many
   */
  List<Attempt> latestAttempts(String pipeline, String split, int limit);

  /**
   * The attempts of {@code split} whose first offset is between {@code from} and {@code to}, both
   * included, in order, strongly consistent.
   */
  List<Attempt> attempts(String pipeline, String split, String from, String to);

  /**
   * The receipts of messages of an unordered split (an SQS queue, a DynamoDB stream) found among
   * {@code ids}, strongly consistent: a message with a receipt was applied to every key and its
   * outputs are in the receipt.
   *
   * @return the receipts' contents by message id; ids without one are absent
   */
  Map<String, byte[]> readReceipts(String pipeline, String split, Collection<String> ids);

  /**
   * Writes receipts of messages of an unordered split (overwriting any with the same id).
   *
   * @param receipts the outputs of each message, by its id
   * @param expiresAt when the receipts may be deleted, epoch seconds
   */
  void writeReceipts(String pipeline, String split, Map<String, byte[]> receipts, long expiresAt);

  /**
   * Records messages of unordered split {@code split} whose outputs, in their receipts, are not
   * delivered yet ({@link DeferredMessage}); an entry with the same {@code order} is replaced.
   */
  void putDeferred(String pipeline, String split, List<DeferredMessage> messages);

  /**
   * The deferred messages of {@code split}, in {@code order}, strongly consistent.
   *
   * @param limit at most this many
   */
  List<DeferredMessage> deferred(String pipeline, String split, int limit);

  /** The last deferred message of {@code split} in {@code order}, or null, strongly consistent. */
  DeferredMessage lastDeferred(String pipeline, String split);

  /** Deletes deferred messages of {@code split} by {@code order}; absent ones are ignored. */
  void deleteDeferred(String pipeline, String split, Collection<String> orders);

  /**
   * Writes a split's state if its stored version is still {@code state.version() - 1} (no item for
   * version 1).
   *
   * @return false if another invocation wrote it meanwhile; nothing was written
   */
  boolean writeSplit(String pipeline, SplitState state);

  /** Adds timer items. */
  void putTimers(String pipeline, List<TimerItem> timers);

  /**
   * The timer items whose earliest timer is due at {@code time}, in order of that time, strongly
   * consistent.
   *
   * @param limit at most this many items
   */
  List<TimerItem> timersDueBy(String pipeline, long time, int limit);

  /** Deletes timer items by id; ids without an item are ignored. */
  void deleteTimers(String pipeline, Collection<String> ids);

  /**
   * One key's item to write.
   *
   * @param key the encoded key
   * @param expectedVersion the version read, 0 if there was no item
   * @param state the key's operator state, or null if it has none
   * @param bookkeeping what the pipeline records per key (positions applied, an outbox)
   * @param expiresAt when the item may be deleted, epoch seconds; 0 for never
   */
  record KeyWrite(
      String key, long expectedVersion, byte[] state, byte[] bookkeeping, long expiresAt) {}
}
