/**
 * Pipelines on Lambda: {@link dev.statekit.stream.lambda.BatchPipeline} runs a pipeline over the
 * batches of Kinesis, DynamoDB Streams and SQS event sources, each batch a checkpoint of keyed
 * state in a {@link dev.statekit.stream.lambda.BatchStore}, results to {@link
 * dev.statekit.stream.lambda.EgressOutput}s with ids a replay repeats. No Lambda types: the
 * handlers in {@code dev.statekit.handlers} translate Lambda's events.
 */
package dev.statekit.stream.lambda;
