/**
 * The {@code cost} suite: measured figures of a pipeline batch and a runtime batch turned into
 * dollars at published on-demand prices, beside the minimum Managed Service for Apache Flink
 * application and a Flink StateFun cluster of the same minimum.
 */
package dev.statekit.benchmarks.cost;
