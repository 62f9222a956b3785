package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.lambda.BatchConcurrency;
import dev.statekit.stream.lambda.BatchFaultHook;
import dev.statekit.stream.lambda.BatchStore;
import java.time.Clock;

/**
 * How a batch pipeline runs (see {@code BatchPipeline.Builder} for each setting's meaning).
 *
 * @param store where keys, splits and timers are kept
 * @param clock the wall clock (idle time, candidate ages, retention)
 * @param batchTimeoutMs the longest an invocation runs
 * @param retentionMs how long messages' receipts are kept, and pending messages at most
 * @param stateTtlSeconds how long a key's state is kept after its last write, 0 for ever
 * @param maxCachedKeys key items kept in memory between batches
 * @param timerPage timer items one query of the timer index reads
 * @param hook the fault-injection hook
 * @param concurrency how a step's independent calls run
 * @param refusedOutputs where records the outputs' sinks refuse for what they hold are set aside,
 *     or null to fail their batches
 */
public record BatchSettings(
    BatchStore store,
    Clock clock,
    long batchTimeoutMs,
    long retentionMs,
    long stateTtlSeconds,
    int maxCachedKeys,
    int timerPage,
    BatchFaultHook hook,
    BatchConcurrency concurrency,
    EgressSink refusedOutputs) {}
