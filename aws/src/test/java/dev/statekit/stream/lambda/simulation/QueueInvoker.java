package dev.statekit.stream.lambda.simulation;

import dev.statekit.event.BatchConsumer;
import dev.statekit.event.QueueRecord;
import dev.statekit.stream.lambda.BatchPipeline;
import java.util.List;
import java.util.function.Function;

/**
 * How an SQS event source mapping model invokes the function: with the records of an SQS event, as
 * Lambda hands them to the consumer registered for the queue, not with a batch built for the
 * pipeline, so that the consumer's routing of the records ({@code SourceBatches}) runs.
 */
interface QueueInvoker {
  /**
   * The consumer the function registered for a queue.
   *
   * @param name how the trace names it
   * @param of the consumer of an instance's pipeline
   */
  record Handler(String name, Function<BatchPipeline, BatchConsumer<QueueRecord>> of) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Invokes the function with {@code event}'s records, which {@code handler} takes. */
  Invoker.Outcome invoke(Handler handler, List<QueueRecord> event);

  /** Invokes the function with each event at the same time, interleaved. */
  List<Invoker.Outcome> together(Handler handler, List<List<QueueRecord>> events);
}
