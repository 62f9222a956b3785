package dev.statekit.runtime;

import dev.statekit.Deadline;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueMessage;
import dev.statekit.concurrent.ParallelCalls;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.event.BatchConsumer;
import dev.statekit.event.EnvelopeConsumer;
import dev.statekit.event.QueueRecord;
import dev.statekit.event.ScheduledTask;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.runtime.internal.DeliveryTranslator;
import dev.statekit.runtime.internal.FaultHook;
import dev.statekit.runtime.internal.RuntimeRoutes;
import dev.statekit.runtime.internal.RuntimeSettings;
import dev.statekit.runtime.internal.TimerSweeper;
import dev.statekit.runtime.internal.WakeUps;
import dev.statekit.runtime.store.FunctionStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * StateKit as the runtime of its own functions: state in a {@link FunctionStore} (DynamoDB),
 * messages between functions over a {@link MessageBus} (an SQS FIFO queue, group = target address),
 * delayed messages as durable timers, egress records to sinks. Each message's effects take effect
 * exactly once, through crashes, repeats and concurrent workers. Built once, then thread-safe:
 *
 * <pre>{@code
 * FunctionRuntime runtime = FunctionRuntime.builder(functions)
 *     .store(new DynamoDbFunctionStore(dynamoDb, table))
 *     .queue(new SqsMessageBus(sqs, ingressQueueUrl))
 *     .deadLetters(new SqsMessageBus(sqs, deadLetterQueueUrl))
 *     .egress(EgressRoutes.builder().route(GREETS, new SqsEgressSink(sqs, greetsUrl)).build())
 *     .build();
 * }</pre>
 *
 * Three entry points: {@link #invoke} for direct invokes, {@link #processQueueBatch} for the
 * ingress queue's batches, {@link #sweepTimers} on a schedule. The Lambda handlers in {@code
 * dev.statekit.handlers} are thin adapters over them.
 */
public final class FunctionRuntime {
  /**
   * The logger ({@link dev.statekit.telemetry.Log}) that says why each message of a queue batch
   * comes again, one line per message: {@code Message <id> comes again: <why>}. On Lambda it lands
   * in the function's log.
   */
  public static final String FAILURES_LOGGER = "dev.statekit.runtime";

  /**
   * The logger that writes one {@code WARN} line per dead letter sent, with its error, its target
   * as the line's {@code address} and its trace id.
   */
  public static final String DEAD_LETTERS_LOGGER = "dev.statekit.deadletters";

  private final DeliveryTranslator entries;
  private final TimerSweeper sweeper;
  private final WakeUps wakeUps;
  private final String ingressQueue;

  private FunctionRuntime(RuntimeSettings settings, String ingressQueue) {
    this.ingressQueue = ingressQueue;
    this.entries = new DeliveryTranslator(settings);
    this.sweeper = new TimerSweeper(settings);
    this.wakeUps = new WakeUps(settings);
  }

  /** Starts a runtime for {@code functions}. */
  public static Builder builder(StatefulFunctions functions) {
    return new Builder(functions);
  }

  /**
   * Applies direct invocations, in order per address, addresses in parallel.
   *
   * @return one result per invocation, in order
   */
  public List<DirectResult> invoke(List<DirectInvocation> invocations) {
    return entries.invoke(invocations);
  }

  /** Applies one direct invocation. */
  public DirectResult invoke(DirectInvocation invocation) {
    return entries.invoke(List.of(invocation)).get(0);
  }

  /**
   * A request-reply call: applies the invocation as a direct invoke does (state committed once,
   * effects through the outbox) and answers the reply its function sent, an egress record to {@link
   * dev.statekit.function.Reply#EGRESS} ({@code statekit/reply}). With an idempotency key the reply
   * is committed with the state, so a call repeated with the same key (its answer lost, its process
   * dead after the commit) is answered with the same reply and applies nothing again, for as long
   * as keys are kept ({@link Builder#idempotency}). Replies have at most 16 KiB.
   */
  public CallResult call(DirectInvocation invocation) {
    return entries.call(List.of(invocation), 0).get(0);
  }

  /**
   * {@link #call(DirectInvocation)} for each invocation, in order per address, addresses in
   * parallel; a call whose address is still busy (other commits keep winning) once {@code timeout}
   * has passed is answered {@link CallResult.Status#BUSY}, with nothing applied.
   */
  public List<CallResult> call(List<DirectInvocation> invocations, Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("A call's timeout is positive, got " + timeout);
    }
    return entries.call(invocations, timeout.toMillis());
  }

  /**
   * Applies a JSON payload: one envelope {@code {"target": "ns/type/id", "typename": "...",
   * "value": ..., "id": "..."}} (see {@link Ingress}), answered with {@code {"status": "applied"}}
   * or {@code {"status": "duplicate"}}; or a JSON array of envelopes, answered with {@code
   * {"results": [{"status": ..., "error": ...}, ...]}} in the same order ({@code applied}, {@code
   * duplicate}, {@code failed} (retry it), {@code rejected} (don't)). An envelope with {@code
   * "call": true} (and optionally {@code "timeoutMillis"}) is a {@linkplain #call call}: it is
   * answered {@code {"status": "applied", "repeat": false, "reply": {"typename": ..., "value":
   * ...}}} (or {@code "reply": null} with a {@code "note"}), or {@code {"status": "failed" | "busy"
   * | "unavailable" | "rejected", "error": ..., "retry": true|false}}, never thrown.
   *
   * @throws InvalidEnvelopeException if a single envelope is malformed (an array answers per
   *     element instead)
   * @throws InvocationFailedException if a single envelope failed or was rejected
   */
  public byte[] invokeJson(byte[] payload) {
    return entries.invokeJson(payload);
  }

  /**
   * Processes a batch from the ingress queue. Messages that failed come back in the result, with
   * the later messages of their FIFO groups and why (also logged to {@link #FAILURES_LOGGER}); a
   * message that fails on its last attempt ({@link Builder#maxAttempts}) or can never succeed goes
   * to the dead-letter queue with its error, and its address carries on.
   */
  public QueueBatchResult processQueueBatch(List<QueueMessage> messages) {
    return processQueueBatch(messages, Deadline.none());
  }

  /**
   * Processes a batch from the ingress queue, answering by {@code deadline} (on Lambda, the time
   * the invocation has left): once about a third of the time left (at most 10 seconds) is all that
   * remains, no further invocation starts, the addresses whose functions have answered are
   * committed, and the messages of the others fail for now and come again. So one slow function
   * costs its own messages a retry, not the whole batch a timeout on every receive.
   */
  public QueueBatchResult processQueueBatch(List<QueueMessage> messages, Deadline deadline) {
    Objects.requireNonNull(deadline, "deadline");
    List<QueueMessage> arrived = new ArrayList<>();
    List<QueueMessage> others = new ArrayList<>();
    for (QueueMessage message : messages) {
      (WakeUps.isWakeUp(message.body()) ? arrived : others).add(message);
    }
    if (arrived.isEmpty()) {
      return entries.process(messages, deadline);
    }
    List<String> again = wakeUps.arrived(arrived);
    QueueBatchResult rest =
        others.isEmpty()
            ? new QueueBatchResult(List.of(), Map.of(), 0, 0, 0, 0)
            : entries.process(others, deadline);
    List<String> failed = new ArrayList<>(rest.failedMessageIds());
    Map<String, String> errors = new LinkedHashMap<>(rest.errors());
    for (String id : again) {
      failed.add(id);
      errors.put(
          id, "The wake-up could not read its timer or send its message yet; it comes again");
    }
    return new QueueBatchResult(
        failed, errors, rest.applied(), rest.duplicates(), rest.deadLettered(), rest.deferred());
  }

  /**
   * Sends the delayed messages that are due, in one sweep (at most {@link Builder#sweepLimit} per
   * timer shard); {@link SweepResult#more()} says whether more were due.
   */
  public SweepResult sweepTimers() {
    return sweeper.sweep();
  }

  /**
   * Sends the delayed messages that are due, sweeping again while more are due and {@code deadline}
   * leaves time for another sweep (at least 10 seconds, or twice the longest sweep so far; at most
   * 20 sweeps). Run it on a schedule (every minute on Lambda, with the invocation's remaining time
   * as the deadline): a result with {@link SweepResult#more()} set means due messages were left for
   * the next run.
   */
  public SweepResult sweepTimers(Deadline deadline) {
    return sweeper.sweepUntil(Objects.requireNonNull(deadline, "deadline"));
  }

  /**
   * The name the runtime's timer sweep is scheduled under ({@code timers}): the scheduled event's
   * task, as {@code EntryPoint.builder().scheduled(FunctionRuntime.SWEEP_TASK,
   * runtime.sweepTask())} routes it.
   */
  public static final String SWEEP_TASK = "timers";

  /**
   * The runtime as a consumer of direct invokes carrying ingress envelopes ({@link
   * #invokeJson(byte[])}), for the entry point's {@code envelopes(...)}.
   */
  public EnvelopeConsumer envelopeConsumer() {
    return this::invokeJson;
  }

  /**
   * The runtime as a consumer of its ingress queue's batches ({@link #processQueueBatch(List,
   * Deadline)}), for the entry point's {@code queue(...)} or {@code anyQueue(...)}: the messages it
   * did not finish are reported as failed, so only those come back.
   */
  public BatchConsumer<QueueRecord> queueConsumer() {
    return BatchConsumer.byDeadline(
        (records, deadline) -> RuntimeRoutes.queueBatch(this, ingressQueue, records, deadline));
  }

  /**
   * The runtime's timer sweep as a scheduled task, stopping before the invocation's deadline
   * ({@link #sweepTimers(Deadline)}), for the entry point's {@code scheduled(SWEEP_TASK, ...)}. It
   * answers {@code {"sent": n, "failed": m, "more": true|false, "outboxes": k, "outboxesLeft": l}}.
   */
  public ScheduledTask sweepTask() {
    return event -> RuntimeRoutes.sweep(this, event.deadline());
  }

  /** Builds a {@link FunctionRuntime}; every setting is checked when set. */
  public static final class Builder {
    private final StatefulFunctions functions;
    private FunctionStore store;
    private MessageBus queue;
    private MessageBus deadLetters;
    private EgressRoutes egress = EgressRoutes.none();
    private Clock clock = Clock.systemUTC();
    private int maxAttempts = 5;
    private int maxConflictRetries = 10;
    private Duration dedupRetention = Duration.ofDays(14);
    private Duration idempotencyRetention = Duration.ofHours(7);
    private int idempotencyCapacity = 128;
    private int markCapacity = 32;
    private Duration outboxSweepAfter = Duration.ofMinutes(2);
    private Duration maxDelay = Duration.ofDays(3650);
    private Duration timerResendAfter = Duration.ofMinutes(5);
    private int sweepLimit = 250;
    private FaultHook faultHook = FaultHook.NONE;
    private int parallelism = 100;
    private ParallelCalls parallel;
    // Not a thread-local generator: environments restored from one SnapStart snapshot share its
    // seed, and would draw the same incarnations.
    private RandomGenerator random = new SecureRandom();
    private RuntimeSettings.Pauses pauses = RuntimeSettings.Pauses.BACKOFF;
    private int deliveredCacheSize = 10_000;
    private MessageBus wakeUps;
    private Duration sweepInterval = Duration.ofMinutes(1);
    private InvocationObserver observer = InvocationObserver.NONE;

    private Builder(StatefulFunctions functions) {
      this.functions = Objects.requireNonNull(functions, "functions");
    }

    /** Where state and timers live (required). */
    public Builder store(FunctionStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /** The ingress queue, where messages between functions and fired timers go (required). */
    public Builder queue(MessageBus queue) {
      this.queue = Objects.requireNonNull(queue, "queue");
      return this;
    }

    /** Where messages that can't be processed go, with their error (required for queue batches). */
    public Builder deadLetters(MessageBus deadLetters) {
      this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
      return this;
    }

    /** Which sink each egress goes to (default: none, so any egress record is refused). */
    public Builder egress(EgressRoutes egress) {
      this.egress = Objects.requireNonNull(egress, "egress");
      return this;
    }

    /** The clock for expiry and delays (default: the system's, UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How many times a queue message may fail before it goes to the dead-letter queue (default 5).
     * Keep it below the queue's own redrive {@code maxReceiveCount}, so the runtime dead-letters
     * first, with the error.
     *
     * @throws IllegalArgumentException if under 1
     */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = atLeast(1, maxAttempts, "maxAttempts");
      return this;
    }

    /**
     * How often an address's commit is redone after a concurrent commit won (default 10).
     *
     * @throws IllegalArgumentException if under 1
     */
    public Builder maxConflictRetries(int maxConflictRetries) {
      this.maxConflictRetries = atLeast(1, maxConflictRetries, "maxConflictRetries");
      return this;
    }

    /**
     * How long an address remembers the last message applied per queue group and per sender
     * (default 14 days, SQS's longest retention), and so how long after its first delivery a dead
     * letter can be sent again safely: a repeat arriving later is applied again. An item whose last
     * commit left effects to deliver is kept at least a day whatever this retention (or twice
     * {@code maxAttempts} times {@code outboxSweepAfter} if longer), so the sweep finds them.
     *
     * @throws IllegalArgumentException if under a minute
     */
    public Builder dedupRetention(Duration dedupRetention) {
      this.dedupRetention = atLeast(Duration.ofMinutes(1), dedupRetention, "dedupRetention");
      return this;
    }

    /**
     * How long an address remembers the idempotency keys it applied (an envelope's {@code id}, on a
     * direct invoke or the ingress queue alike), and how many it keeps in its own item (default 7
     * hours, beyond Lambda's 6 hours of asynchronous retries, and 128 keys of 8 bytes each, a KB).
     * Past the capacity the oldest move to items of their own (one small write each), so every key
     * is remembered for the whole retention whatever the rate; while any has moved, a key the item
     * does not hold costs one strongly consistent read.
     *
     * @throws IllegalArgumentException if the retention is under a second or the capacity under 1
     */
    public Builder idempotency(Duration retention, int capacity) {
      this.idempotencyRetention = atLeast(Duration.ofSeconds(1), retention, "retention");
      this.idempotencyCapacity = atLeast(1, capacity, "capacity");
      return this;
    }

    /**
     * How many queue groups, and how many sending addresses, an address keeps the marks of in its
     * own item (default 32 each, about 1.5 KB of senders). Past it the least recently seen move to
     * items of their own (one small write each), so an address can hear from any number of senders
     * while its item, which every commit writes whole, stays small.
     *
     * @throws IllegalArgumentException if under 4
     */
    public Builder markCapacity(int markCapacity) {
      this.markCapacity = atLeast(4, markCapacity, "markCapacity");
      return this;
    }

    /**
     * How long after a batch begins its commits the timer sweep takes over delivering the effects
     * they committed, should the batch not finish, and how long it waits before trying an outbox
     * again (default 2 minutes). Keep it above twice the function's timeout: a batch that has not
     * committed within half of it commits nothing and comes again, so that the sweep never takes
     * over a registration a commit is still to name.
     *
     * @throws IllegalArgumentException if under 10 seconds
     */
    public Builder outboxSweepAfter(Duration sweepAfter) {
      this.outboxSweepAfter = atLeast(Duration.ofSeconds(10), sweepAfter, "outboxSweepAfter");
      return this;
    }

    /**
     * The longest delay of a delayed message (default 3650 days).
     *
     * @throws IllegalArgumentException if under 365 days or past the year 2200
     */
    public Builder maxDelay(Duration maxDelay) {
      Objects.requireNonNull(maxDelay, "maxDelay");
      if (maxDelay.compareTo(Duration.ofDays(365)) < 0
          || maxDelay.compareTo(Duration.ofDays(365L * 150)) > 0) {
        throw new IllegalArgumentException(
            "maxDelay must be between 365 days and 150 years, got " + maxDelay);
      }
      this.maxDelay = maxDelay;
      return this;
    }

    /**
     * After how long a sweep sends again a delayed message it sent whose target has not applied it
     * yet (default 5 minutes, SQS's deduplication window).
     *
     * @throws IllegalArgumentException if under 10 seconds
     */
    public Builder timerResendAfter(Duration resendAfter) {
      this.timerResendAfter = atLeast(Duration.ofSeconds(10), resendAfter, "timerResendAfter");
      return this;
    }

    /**
     * The standard SQS queue (not FIFO) of delayed messages' wake-ups, for delivery within about a
     * second of the due time; without one, a delayed message goes out with the first sweep after it
     * is due. A timer due within 15 minutes gets its wake-up right after its commit, a later one
     * from the sweep that runs last before it is due. Route this queue's batches to {@link
     * #processQueueBatch} (as {@code EntryPointBuilder.runtime(runtime, ingressQueue, wakeUpQueue)}
     * does).
     *
     * @throws IllegalArgumentException if {@code wakeUps} is the ingress queue
     */
    public Builder wakeUps(MessageBus wakeUps) {
      this.wakeUps = Objects.requireNonNull(wakeUps, "wakeUps");
      return this;
    }

    /**
     * How often the timer sweep runs (default 1 minute, the template's schedule): each sweep puts
     * the wake-ups of the timers due before about one and a half of these have passed.
     *
     * @throws IllegalArgumentException if under 1 second or over 10 minutes (wake-ups of the next
     *     run must fit SQS's 15-minute delay)
     */
    public Builder sweepInterval(Duration interval) {
      this.sweepInterval = atLeast(Duration.ofSeconds(1), interval, "sweepInterval");
      if (interval.compareTo(Duration.ofMinutes(10)) > 0) {
        throw new IllegalArgumentException(
            "sweepInterval must be at most 10 minutes (a wake-up waits at most 15), got "
                + interval);
      }
      return this;
    }

    /**
     * Who sees each invocation run, with its message, state before and after and effects, once its
     * outcome is settled (default: {@link InvocationObserver#NONE}, and nothing is recorded). The
     * local runner's console registers one.
     */
    public Builder observer(InvocationObserver observer) {
      this.observer = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /**
     * How many due timers one sweep reads per shard (default 250; 8 shards).
     *
     * @throws IllegalArgumentException if under 1
     */
    public Builder sweepLimit(int sweepLimit) {
      this.sweepLimit = atLeast(1, sweepLimit, "sweepLimit");
      return this;
    }

    /**
     * How many requests the runtime makes at once (default 100, so a batch of 100 addresses commits
     * in one round trip).
     *
     * @throws IllegalArgumentException if under 1
     */
    public Builder parallelism(int parallelism) {
      this.parallelism = atLeast(1, parallelism, "parallelism");
      return this;
    }

    /**
     * A hook called between the steps of a batch, for the runtime's fault-injection tests (in this
     * package); not user API.
     */
    Builder faultHook(FaultHook faultHook) {
      this.faultHook = Objects.requireNonNull(faultHook, "faultHook");
      return this;
    }

    /**
     * Makes every source of nondeterminism the simulator's: calls one at a time in an order drawn
     * from {@code random}, incarnations and registration ids from it, conflict backoff as {@code
     * pauses} decides. For the runtime's deterministic simulation (in this package); not user API.
     */
    Builder deterministic(RandomGenerator random, RuntimeSettings.Pauses pauses) {
      this.random = Objects.requireNonNull(random, "random");
      this.parallel = ParallelCalls.inTurn(random);
      this.pauses = Objects.requireNonNull(pauses, "pauses");
      return this;
    }

    /**
     * The runtime.
     *
     * @throws IllegalStateException if the store or the queue is missing
     * @throws IllegalArgumentException if two function types make addresses ambiguous
     */
    public FunctionRuntime build() {
      if (store == null) {
        throw new IllegalStateException(
            "The runtime needs a store: call store(new DynamoDbFunctionStore(dynamoDb, table)) or"
                + " store(new InMemoryFunctionStore())");
      }
      if (queue == null) {
        throw new IllegalStateException(
            "The runtime needs the ingress queue for messages between functions: call"
                + " queue(new SqsMessageBus(sqs, queueUrl))");
      }
      if (wakeUps == queue) {
        throw new IllegalArgumentException(
            "The wake-up queue is a standard queue of its own, not the ingress FIFO queue");
      }
      return new FunctionRuntime(
          new RuntimeSettings(
              functions,
              store,
              queue,
              deadLetters,
              egress,
              clock,
              maxAttempts,
              maxConflictRetries,
              dedupRetention,
              idempotencyRetention,
              idempotencyCapacity,
              markCapacity,
              outboxSweepAfter,
              maxDelay,
              timerResendAfter,
              sweepLimit,
              faultHook,
              parallel != null ? parallel : new ParallelCalls(parallelism),
              random,
              pauses,
              deliveredCacheSize,
              wakeUps,
              sweepInterval,
              observer),
          queue.queueName().orElse(null));
    }

    private static int atLeast(int minimum, int value, String name) {
      if (value < minimum) {
        throw new IllegalArgumentException(
            name + " must be at least " + minimum + ", got " + value);
      }
      return value;
    }

    private static Duration atLeast(Duration minimum, Duration value, String name) {
      Objects.requireNonNull(value, name);
      if (value.compareTo(minimum) < 0) {
        throw new IllegalArgumentException(
            name + " must be at least " + minimum + ", got " + value);
      }
      return value;
    }
  }
}
