package dev.statekit.application;

import dev.statekit.egress.EgressSink;
import dev.statekit.egress.LoggingSink;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * What a pipeline is built over.
 *
 * @param name the pipeline's declared name
 * @param store where its state, positions and watermarks live (DynamoDB, or memory)
 * @param runtime the application's function runtime, for outputs that message functions
 * @param variables the application's settings
 * @param batchTimeout the longest one batch can run (the function's timeout)
 * @param clock the wall clock (idle shards, retention)
 * @param egressQueues the sinks of the egresses the application declares as queues
 */
public record PipelineWiring(
    String name,
    BatchStore store,
    FunctionRuntime runtime,
    Variables variables,
    Duration batchTimeout,
    Clock clock,
    Map<TypeName, EgressSink> egressQueues) {
  /** Copies the sinks. */
  public PipelineWiring {
    egressQueues = Map.copyOf(egressQueues);
  }

  /**
   * Where the application sends egress {@code egress}: its queue if declared with {@link
   * Application.Builder#egress}, else the log. Give it to {@code EgressOutput.to} for a pipeline
   * output that leaves the application.
   */
  public EgressSink egress(TypeName egress) {
    EgressSink sink = egressQueues.get(egress);
    return sink != null ? sink : new LoggingSink();
  }
}
