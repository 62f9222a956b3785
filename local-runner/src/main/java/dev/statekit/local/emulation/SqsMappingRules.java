package dev.statekit.local.emulation;

import dev.statekit.local.template.EventSource;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.local.template.Resource;

/**
 * What Lambda checks when it creates an SQS event source mapping, checked before the local runner
 * polls: a template it would refuse must not work here and fail on deploy.
 */
public final class SqsMappingRules {
  /** SQS's default {@code VisibilityTimeout}. */
  private static final long DEFAULT_VISIBILITY_SECONDS = 30;

  private SqsMappingRules() {}

  /**
   * Refuses the mapping of {@code event} (an SQS event of {@code function}) on {@code queue} as
   * Lambda refuses it.
   *
   * @throws IllegalArgumentException naming the setting to change
   */
  public static void check(FunctionDef function, EventSource event, Resource queue) {
    String label = function.logicalId() + "." + event.name();
    long visibility = queue.number("VisibilityTimeout", DEFAULT_VISIBILITY_SECONDS);
    if (function.timeoutSeconds() > visibility) {
      throw new IllegalArgumentException(
          label
              + ": the queue "
              + queue.logicalId()
              + " has a VisibilityTimeout of "
              + visibility
              + " s, under the function's Timeout of "
              + function.timeoutSeconds()
              + " s; Lambda refuses such a mapping. Set VisibilityTimeout to at least the"
              + " Timeout (six times it, as Lambda advises)");
    }
    long batchSize = event.number("BatchSize", 10);
    boolean fifo = queue.flag("FifoQueue", false);
    long most = fifo ? 10 : 10_000;
    if (batchSize < 1 || batchSize > most) {
      throw new IllegalArgumentException(
          label
              + ": BatchSize "
              + batchSize
              + " is outside 1 to "
              + most
              + " for a "
              + (fifo ? "FIFO" : "standard")
              + " queue; Lambda refuses it");
    }
    if (batchSize > 10 && event.number("MaximumBatchingWindowInSeconds", 0) < 1) {
      throw new IllegalArgumentException(
          label
              + ": a BatchSize over 10 ("
              + batchSize
              + ") needs MaximumBatchingWindowInSeconds of at least 1; Lambda refuses it without");
    }
  }
}
