package dev.statekit.runtime.internal;

import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.MessageBus;
import dev.statekit.concurrent.Backoff;
import dev.statekit.concurrent.ParallelCalls;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.invocation.FunctionEngine;
import dev.statekit.runtime.InvocationObserver;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.runtime.store.OutboxKey;
import java.time.Clock;
import java.time.Duration;
import java.util.random.RandomGenerator;

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

  /** Outbox registrations are spread over this many partitions; a sweep reads each. */
  static final int OUTBOX_SHARDS = 8;

  /** DynamoDB transactions hold 100 items; one is the state. */
  static final int MAX_TIMER_CHANGES = 99;

  /**
   * The room for new timers' items in one commit: DynamoDB transactions hold 4 MB, the state item
   * takes up to its limit, and every other action a little.
   */
  static final long MAX_TIMER_BYTES = 4L * 1024 * 1024 - 400 * 1024 - MAX_TIMER_CHANGES * 1024L;

  /** How many of an address's latest commits its state names (see {@code AddressCommitter}). */
  static final int RECENT_COMMITS = 4;

  /** The largest reply a call may return: a reply is kept in the address's item with its key. */
  public static final int MAX_REPLY_BYTES = 16 * 1024;

  /**
   * How many bytes of recent calls' replies an address's item keeps; older ones leave for items of
   * their own (every commit rewrites the item, so each byte kept costs every later write).
   */
  static final int REPLY_BUDGET_BYTES = 1024;

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
  final Pauses conflictBackoff;
  final Duration dedupRetention;
  final Duration idempotencyRetention;
  final int idempotencyCapacity;
  final int markCapacity;
  final Duration outboxSweepAfter;
  final Duration maxDelay;
  final Duration timerResendAfter;
  final int sweepLimit;
  final FaultHook hook;
  final ParallelCalls parallel;
  final RandomGenerator random;
  final DeliveredCache delivered;
  final MessageBus wakeUps;
  final Duration wakeUpHorizon;
  final InvocationObserver observer;

  /**
   * The settings; see {@code FunctionRuntime.Builder} for what each means.
   *
   * @param parallel how the runtime makes independent calls at once
   * @param random where incarnations and registration ids come from
   * @param pauses how the runtime waits before it redoes a conflicting commit
   * @param wakeUps the standard queue of delayed messages' wake-ups, or {@code null} for none
   * @param sweepInterval how often the timer sweep runs
   * @param observer what is shown each invocation run ({@link InvocationObserver#NONE} for none)
   */
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
      int markCapacity,
      Duration outboxSweepAfter,
      Duration maxDelay,
      Duration timerResendAfter,
      int sweepLimit,
      FaultHook hook,
      ParallelCalls parallel,
      RandomGenerator random,
      Pauses pauses,
      int deliveredCacheSize,
      MessageBus wakeUps,
      Duration sweepInterval,
      InvocationObserver observer) {
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
    this.conflictBackoff = pauses;
    this.dedupRetention = dedupRetention;
    this.idempotencyRetention = idempotencyRetention;
    this.idempotencyCapacity = idempotencyCapacity;
    this.markCapacity = markCapacity;
    this.outboxSweepAfter = outboxSweepAfter;
    this.maxDelay = maxDelay;
    this.timerResendAfter = timerResendAfter;
    this.sweepLimit = sweepLimit;
    this.hook = hook;
    this.parallel = parallel;
    this.random = random;
    this.delivered = new DeliveredCache(deliveredCacheSize);
    this.wakeUps = wakeUps;
    // The sweep wakes what is due before its next run, and a little more: schedules are not exact.
    this.wakeUpHorizon = sweepInterval.plus(sweepInterval.dividedBy(2));
    this.observer = java.util.Objects.requireNonNull(observer, "observer");
  }

  /** How the runtime waits before attempt {@code attempt + 1} of something that conflicted. */
  @FunctionalInterface
  public interface Pauses {
    /** Backoff with jitter, from 5 ms doubling up to 200 ms. */
    Pauses BACKOFF = new Backoff(Duration.ofMillis(5), Duration.ofMillis(200))::pause;

    /** Waits before attempt {@code attempt + 1}. */
    void pause(int attempt);
  }

  /** How many marks of each kind an address's item keeps, and for how long. */
  AppliedMarks.Limits markLimits() {
    return new AppliedMarks.Limits(
        dedupRetention.toSeconds(),
        markCapacity,
        idempotencyRetention.toSeconds(),
        idempotencyCapacity);
  }

  /**
   * How long an item whose commit left effects to deliver is kept at least, whatever the dedup
   * retention: its outbox lives in it, and TTL deleting it before the outbox is out or
   * dead-lettered would lose the effects. A day, or twice the time of every try at the sweep's pace
   * if longer: sweeps that stall for hours (a failing schedule) still find it.
   */
  long outboxKeepSeconds() {
    return Math.max(
        Duration.ofDays(1).toSeconds(), 2L * maxAttempts * outboxSweepAfter.toSeconds());
  }

  /** A fresh registration key for one batch's outboxes, due for the sweep after a while. */
  OutboxKey newOutboxKey() {
    long id = random.nextLong();
    return new OutboxKey(
        Math.floorMod(id, OUTBOX_SHARDS),
        clock.millis() + outboxSweepAfter.toMillis(),
        Long.toHexString(id) + Long.toHexString(random.nextLong()));
  }

  /** The largest body of a message to a function, with room for the queue's framing. */
  int maxBodyBytes() {
    return queue.maxMessageBytes() - MESSAGE_MARGIN;
  }
}
