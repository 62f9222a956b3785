/** The {@code operators} suite: the operator core beside Flink's local execution. */
package dev.statekit.benchmarks.operators;
