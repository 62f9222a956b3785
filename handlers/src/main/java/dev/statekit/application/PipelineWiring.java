package dev.statekit.application;

import dev.statekit.handlers.Variables;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.stream.lambda.BatchStore;
import java.time.Clock;
import java.time.Duration;

/**
 * What a pipeline is built over.
 *
 * @param name the pipeline's declared name
 * @param store where its state, positions and watermarks live (DynamoDB, or memory)
 * @param runtime the application's function runtime, for outputs that message functions
 * @param variables the application's settings
 * @param batchTimeout the longest one batch can run (the function's timeout)
 * @param clock the wall clock (idle shards, retention)
 */
public record PipelineWiring(
    String name,
    BatchStore store,
    FunctionRuntime runtime,
    Variables variables,
    Duration batchTimeout,
    Clock clock) {}
