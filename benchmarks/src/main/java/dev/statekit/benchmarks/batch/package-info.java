/** The {@code batch-engine} suite: CPU per record of the Lambda batch engine and its peers. */
package dev.statekit.benchmarks.batch;
