package dev.statekit.stream.lambda.internal;

import dev.statekit.StateKitException.Reason;
import dev.statekit.stream.state.StateStoreException;
import java.nio.charset.StandardCharsets;

/**
 * DynamoDB's 400 KB item limit, checked before anything of a batch is written, on the size DynamoDB
 * computes for a key's item: every attribute's name and value ({@code pk}, {@code sk}, {@code v},
 * {@code st}, {@code bk}, {@code expires_at}), strings and binaries at their length, numbers at
 * about one byte per two digits.
 */
final class ItemLimit {
  /** DynamoDB's limit. */
  static final int MAX_BYTES = 400 * 1024;

  /**
   * The bytes of per-record outputs one key keeps from one batch, after which the key's further
   * records come again in a later batch: a key keeps every output of a batch until the checkpoint
   * passes it, so one key with most of a large batch (a hot partition key) would otherwise pass
   * {@link #MAX_BYTES} with any state, and be refused on every retry. A quarter leaves the rest for
   * the key's state and for what it still keeps of its previous batch.
   */
  static final int BATCH_OUTPUT_BYTES = MAX_BYTES / 4;

  /** What an estimate of an item's size leaves aside for what it does not count exactly. */
  static final int MARGIN = 1024;

  private ItemLimit() {}

  /** The size DynamoDB bills and limits a key's item at. */
  static int size(String pipeline, String operator, String encoded, byte[] state, byte[] book) {
    String pk = "pipe#" + pipeline + "#" + operator + "#" + encoded;
    return 2
        + pk.getBytes(StandardCharsets.UTF_8).length
        + 2
        + "batch".length()
        + 1
        + 21 // the version, as a number
        + (state == null ? 0 : 2 + state.length)
        + (book == null ? 0 : 2 + book.length)
        + "expires_at".length()
        + 21;
  }

  /**
   * @param outputBytes about the bytes of the batch's outputs the item keeps until they are
   *     delivered
   * @param placeGiven whether the pipeline has a place for refused outputs
   */
  static void check(
      String pipeline,
      String operator,
      Object key,
      String encoded,
      byte[] state,
      byte[] book,
      int outputBytes,
      boolean placeGiven) {
    int size = size(pipeline, operator, encoded, state, book);
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
              + " this batch was written. "
              + (outputBytes > BATCH_OUTPUT_BYTES && !placeGiven
                  ? "About "
                      + outputBytes
                      + " bytes of it are outputs of the batch, kept until they are delivered:"
                      + " send large data elsewhere (e.g. S3) and a reference through the output,"
                      + " or give the pipeline a place where outputs too large to keep go instead"
                      + " (BatchPipeline.builder(...).refusedOutputsTo(sink))"
                  : "Keep less per key: aggregate windows instead of buffering their values, use"
                      + " smaller windows, or key more finely"));
    }
  }
}
