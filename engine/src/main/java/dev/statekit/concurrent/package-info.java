/**
 * How StateKit's engines wait and fan out: {@link dev.statekit.concurrent.ParallelCalls} runs a
 * batch's independent calls (one per address, per key, per DynamoDB request) side by side, and
 * {@link dev.statekit.concurrent.Backoff} spaces retries with jitter. Shared by the runtime, the
 * batch engine and the AWS adapters.
 */
package dev.statekit.concurrent;
