package dev.statekit.runtime.internal;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.internal.FunctionEngine;
import dev.statekit.runtime.bus.MessageBus;
import dev.statekit.runtime.store.FunctionStore;
import java.time.Clock;
import java.time.Duration;

/**
 * Everything the runtime's parts share, checked and fixed by {@code FunctionRuntime.Builder}. Not
 * for users.
 */
public final class RuntimeSettings {
  /**
   * Timers are spread over this many partitions; a sweep reads each. Never lowered: timers in a
   * dropped shard would not be swept.
   */
  static final int TIMER_SHARDS = 8;

  /** DynamoDB transactions hold 100 items; one is the state. */
  static final int MAX_TIMER_CHANGES = 99;

  /** Room left in a queue message for attributes and JSON framing. */
  static final int MESSAGE_MARGIN = 8 * 1024;

  final StatefulFunctions functions;
  final FunctionEngine engine;
  final AddressResolver targets;
  final FunctionStore store;
  final MessageBus queue;
  final MessageBus deadLetters;
  final EgressRoutes egress;
  final Clock clock;
  final int maxAttempts;
  final int maxConflictRetries;
  final RetryPolicy conflictBackoff;
  final Duration dedupRetention;
  final Duration idempotencyRetention;
  final int idempotencyCapacity;
  final Duration maxDelay;
  final Duration timerResendAfter;
  final int sweepLimit;
  final FaultHook hook;
  final ParallelCalls parallel;
  final DeliveredCache delivered;

  /** The settings; see {@code FunctionRuntime.Builder} for what each means. */
  public RuntimeSettings(
      StatefulFunctions functions,
      FunctionStore store,
      MessageBus queue,
      MessageBus deadLetters,
      EgressRoutes egress,
      Clock clock,
      int maxAttempts,
      int maxConflictRetries,
      Duration dedupRetention,
      Duration idempotencyRetention,
      int idempotencyCapacity,
      Duration maxDelay,
      Duration timerResendAfter,
      int sweepLimit,
      FaultHook hook,
      int parallelism,
      int deliveredCacheSize) {
    this.functions = functions;
    this.engine = new FunctionEngine(functions);
    this.targets = new AddressResolver(functions);
    this.store = store;
    this.queue = queue;
    this.deadLetters = deadLetters;
    this.egress = egress;
    this.clock = clock;
    this.maxAttempts = maxAttempts;
    this.maxConflictRetries = maxConflictRetries;
    this.conflictBackoff =
        RetryPolicy.builder()
            .baseDelay(Duration.ofMillis(5))
            .maxDelay(Duration.ofMillis(200))
            .build();
    this.dedupRetention = dedupRetention;
    this.idempotencyRetention = idempotencyRetention;
    this.idempotencyCapacity = idempotencyCapacity;
    this.maxDelay = maxDelay;
    this.timerResendAfter = timerResendAfter;
    this.sweepLimit = sweepLimit;
    this.hook = hook;
    this.parallel = new ParallelCalls(parallelism);
    this.delivered = new DeliveredCache(deliveredCacheSize);
  }

  /** The largest body of a message to a function, with room for the queue's framing. */
  int maxBodyBytes() {
    return queue.maxMessageBytes() - MESSAGE_MARGIN;
  }
}
