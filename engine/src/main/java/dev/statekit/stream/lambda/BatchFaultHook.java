package dev.statekit.stream.lambda;

/**
 * Called by a {@link BatchPipeline} between the steps of a batch, so fault-injection tests can make
 * the invocation "die" at each step by throwing: the exception leaves the batch as a crash would,
 * with whatever was written so far. Production code has no use for it; the default does nothing.
 */
@FunctionalInterface
public interface BatchFaultHook {
  /** Does nothing. */
  BatchFaultHook NONE = (step, detail) -> {};

  /** The steps of a batch. */
  enum Step {
    /** The batch's keys and the splits were read; nothing is written yet. */
    LOADED,
    /**
     * One key's state is about to be written ({@code detail} is the key). Throwing skips that write
     * while the batch's other keys are still written, then fails the batch: a crash in the middle
     * of the flush.
     */
    KEY_WRITE,
    /** Every key and the new timers are written; the split's checkpoint is not. */
    FLUSHED,
    /**
     * The batch's outputs are about to be delivered (a queue's batch writes its receipts and split
     * beside them). Throwing skips the delivery.
     */
    DELIVERY,
    /** Every output was delivered; a shard's checkpoint is not written yet. */
    DELIVERED,
    /** The checkpoint is written; the batch is not answered yet. */
    CHECKPOINTED
  }

  /**
   * Reached {@code step}.
   *
   * @param detail what the step concerns (a key), or the split's name
   */
  void reached(Step step, String detail);
}
