package dev.statekit.stream.lambda.simulation;

import dev.statekit.stream.lambda.SourceBatch;
import java.util.List;

/** How an event source mapping model invokes the function: Lambda's side of an invocation. */
interface Invoker {
  /**
   * The outcome of one invocation.
   *
   * @param failed the offsets it answered as failed ({@code batchItemFailures}), if it returned
   * @param error why it did not return (a crash, an error it threw), or null
   */
  record Outcome(List<String> failed, RuntimeException error) {
    boolean ok() {
      return error == null && failed.isEmpty();
    }
  }

  /** Invokes the function with {@code batch}. */
  Outcome invoke(SourceBatch batch);

  /** Invokes the function with each batch at the same time, interleaved. */
  List<Outcome> together(List<SourceBatch> batches);
}
