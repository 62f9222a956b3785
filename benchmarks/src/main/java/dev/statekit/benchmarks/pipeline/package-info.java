/** The {@code pipeline-cost} suite: what a pipeline batch on Lambda costs in DynamoDB. */
package dev.statekit.benchmarks.pipeline;
