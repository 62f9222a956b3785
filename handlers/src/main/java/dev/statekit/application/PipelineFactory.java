package dev.statekit.application;

import dev.statekit.stream.lambda.BatchPipeline;

/** Builds a pipeline of an application over the store, runtime and settings its wiring gives. */
@FunctionalInterface
public interface PipelineFactory {
  /**
   * The pipeline. Use {@link PipelineWiring#store()}, {@link PipelineWiring#batchTimeout()} and
   * {@link PipelineWiring#clock()}: the wiring chooses them for AWS, the local servers or memory.
   */
  BatchPipeline build(PipelineWiring wiring);
}
