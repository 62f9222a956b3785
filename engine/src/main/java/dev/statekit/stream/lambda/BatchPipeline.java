package dev.statekit.stream.lambda;

import dev.statekit.Deadline;
import dev.statekit.egress.EgressSink;
import dev.statekit.event.BatchConsumer;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.ChangeRecord;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.QueueRecord;
import dev.statekit.event.ScheduledTask;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.PipelineFailedException;
import dev.statekit.stream.lambda.internal.BatchEngine;
import dev.statekit.stream.lambda.internal.BatchSettings;
import dev.statekit.stream.lambda.internal.InOrderConcurrency;
import dev.statekit.telemetry.Telemetry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A pipeline run on Lambda, batch by batch: each batch of a Kinesis or DynamoDB Streams shard or an
 * SQS queue goes through the operator core and ends in a checkpoint in the {@link BatchStore}, and
 * a scheduled {@link #tick} moves idle splits on and fires windows due.
 *
 * <pre>{@code
 * Pipeline counts =
 *     Pipeline.from(BatchSource.records())
 *         .decode(Serdes.json(Click.class))
 *         .withWatermarks(WatermarkStrategy.<Click>boundedOutOfOrderness(Duration.ofSeconds(5))
 *             .withTimestamps(Click::time)
 *             .withIdleTimeout(Duration.ofMinutes(2)))
 *         .keyBy(Click::page)
 *         .window(Windows.tumbling(Duration.ofMinutes(1)))
 *         .aggregate(AggregateFunction.count(), Serdes.longs(), (page, window, n) -> page + "=" + n)
 *         .to(EgressOutput.to(sink, TypeName.of("clicks", "per-minute"), Types.stringType()));
 * BatchPipeline pipeline =
 *     BatchPipeline.builder("clicks", counts)
 *         .store(new DynamoDbBatchStore(dynamoDb, table))
 *         .build();
 * BatchResult result = pipeline.process(batch);   // answer result.failedOffsets() to Lambda
 * }</pre>
 *
 * <p>On Lambda, register it with the entry point, which reads the events:
 *
 * <pre>{@code
 * EntryPoint.builder()
 *     .kinesisStream("clicks", pipeline.kinesisConsumer())
 *     .scheduled("clicks-tick", pipeline.tickTask())
 *     .build();
 * }</pre>
 *
 * <p><b>Exactly once.</b> Each key's item records, per shard, the sequence number of the last
 * record applied to it, and for a queue the messages applied whose receipt is not known written; a
 * retried batch, a repeated record or a batch that crashed half way through its writes skips what
 * each key applied already. Every write is conditional on the version read, so batches of different
 * shards that touch one key never lose an update. Outputs carry ids that a replay repeats, and stay
 * in their key's item until known delivered: a shard's checkpoint is written only after its batch
 * delivered. Records Lambda gives up on are noticed, hold the windows back and can be {@linkplain
 * #replay replayed}; a shard whose batches interleave (ParallelizationFactor above 1) is refused.
 *
 * <p><b>Event time.</b> Each split's watermark is kept with its checkpoint; a window fires once the
 * watermark of every split has passed its end, found through a timer index whichever keys it
 * belongs to, by the batch that sees it due or by the tick.
 *
 * <p>Thread-safe: batches of different splits may be processed at once.
 */
public final class BatchPipeline {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(BatchPipeline.class);
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private final String name;
  private final BatchEngine engine;
  private final Pipeline pipeline;
  private final BatchStore store;
  private final Clock wallClock;

  private BatchPipeline(
      String name, BatchEngine engine, Pipeline pipeline, BatchStore store, Clock wallClock) {
    this.name = name;
    this.engine = engine;
    this.pipeline = pipeline;
    this.store = store;
    this.wallClock = wallClock;
  }

  /**
   * Starts a batch pipeline named {@code name} (its items in the store are named after it; keep it
   * when the code changes) running {@code pipeline}, which reads {@link BatchSource#records()}.
   */
  public static Builder builder(String name, Pipeline pipeline) {
    return new Builder(name, pipeline);
  }

  /** The pipeline's name. */
  public String name() {
    return name;
  }

  /**
   * Its stages and operators, with their labels and configuration, as {@link Pipeline#graph}
   * describes them (one worker per stage: a batch runs each stage once).
   */
  public dev.statekit.stream.PipelineGraph graph() {
    return pipeline.graph(dev.statekit.stream.RunOptions.named(name).build());
  }

  /**
   * What its store holds of each split (and of its tick, the split named {@link SplitState#TICK}):
   * position, watermark, when it was last active; one read of the store.
   */
  public List<SplitState> splits() {
    return store.readSplits(name);
  }

  /**
   * Processes one batch: applies its records, checkpoints its split, fires the windows due and
   * delivers every output, in that order of durability. A record that fails (its decoding, a
   * function under {@code FailurePolicy.fail()}) is reported in {@link
   * BatchResult#failedOffsets()}: on a shard with every record after it.
   *
   * @throws dev.statekit.stream.state.StateStoreException if the store failed (retryable or not)
   * @throws dev.statekit.egress.EgressException if a sink did not take its records
   * @throws PipelineFailedException if the batch starts inside what another batch of its shard
   *     covered or attempted (the event source mapping's ParallelizationFactor is above 1: set it
   *     to 1), nothing of it applied; and on anything else, the batch may be retried whole
   */
  public BatchResult process(SourceBatch batch) {
    return process(batch, Deadline.none());
  }

  /**
   * Processes one batch as {@link #process(SourceBatch)} does, in an invocation to be answered by
   * {@code deadline} (on Lambda, the time the invocation has left): once only a reserve of the time
   * left when the batch started remains ({@link BatchConsumer#reserve}), the batch takes no more
   * records. It applies, delivers and checkpoints those it took, as at the end of any batch, and
   * reports the others in {@link BatchResult#failedOffsets()} as it reports a failed record (on a
   * shard the first of them, Lambda resumes there; on a queue each of them), with a {@link
   * BatchResult#failure()} saying nothing failed: Lambda hands them over again instead of cutting
   * the invocation off at its timeout with none of its answers, to try the whole batch again. It
   * always takes a first record that does not fail, so every try moves on. The records not taken
   * set no watermark, and a batch its keyed operator cut fires no window its own records made due
   * (the split's next batch or the tick fires them): a try cut and lost before its checkpoint could
   * otherwise fire a window its whole retry fires again with the records past the cut.
   *
   * @throws dev.statekit.stream.state.StateStoreException if the store failed (retryable or not)
   * @throws dev.statekit.egress.EgressException if a sink did not take its records
   * @throws PipelineFailedException as {@link #process(SourceBatch)}
   */
  public BatchResult process(SourceBatch batch, Deadline deadline) {
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(deadline, "deadline");
    long started = System.nanoTime();
    try (Telemetry.Restore pipeline = Telemetry.with(Telemetry.PIPELINE, name);
        Telemetry.Restore split = Telemetry.with(Telemetry.SPLIT, batch.split());
        Telemetry.Restore first =
            Telemetry.with(
                Telemetry.BATCH,
                batch.records().isEmpty() ? null : batch.records().get(0).position().offset())) {
      BatchResult result = engine.process(batch, deadline);
      BatchMetrics.record(name, result, started, wallClock.millis());
      return result;
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new PipelineFailedException(
          "Pipeline " + name + " failed on a batch of " + batch.split() + ": " + e, e);
    }
  }

  /**
   * The records Lambda gave up on (after the event source mapping's {@code MaximumRetryAttempts})
   * that were not replayed yet, as the pipeline noticed them: windows past their watermark wait for
   * them. The on-failure destination names the same records (shard, first and last sequence
   * numbers).
   */
  public List<GivenUp> givenUp() {
    return engine.givenUp();
  }

  /**
   * Replays the records of one range Lambda gave up on ({@link #givenUp()}): read them from the
   * stream while it still holds them (its retention, 24 hours by default) with {@code
   * GetShardIterator} of type {@code AFTER_SEQUENCE_NUMBER} at {@link GivenUp#after()} (or {@code
   * TRIM_HORIZON}) and {@code GetRecords} up to {@link GivenUp#before()}, and hand them over as one
   * ordered batch of the shard. Each record is applied to the keys that had not applied it, once;
   * its outputs are delivered; then the range is closed and the windows it held fire. A replay that
   * fails, or whose result names failed records ({@link BatchResult#failedOffsets()}), leaves the
   * range open: repeat it. A range whose records the stream no longer holds is closed by replaying
   * an empty batch of its shard.
   *
   * @param range one of {@link #givenUp()}
   * @param batch its records, in order
   * @throws IllegalArgumentException if the range is not open, or the batch holds a record outside
   *     it
   */
  public BatchResult replay(GivenUp range, SourceBatch batch) {
    Objects.requireNonNull(range, "range");
    Objects.requireNonNull(batch, "batch");
    try {
      return engine.replay(range, batch);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new PipelineFailedException(
          "Pipeline " + name + " failed to replay a batch of " + batch.split() + ": " + e, e);
    }
  }

  /**
   * Makes the splits known before their first batch (a Kinesis stream's shards, as {@code
   * ListShards} names them): no window fires until each of them has had a batch or was idle for the
   * idle timeout. A split that first shows up in a batch joins at the pipeline's watermark, its
   * records behind it late. Splits known already are left alone.
   *
   * @return the splits that were new
   */
  public List<String> registerSplits(Collection<String> splits) {
    Objects.requireNonNull(splits, "splits");
    for (String split : splits) {
      SourceBatch.ordered(split); // validates the name
    }
    return engine.registerSplits(splits);
  }

  /**
   * The scheduled tick (every minute): moves the watermark of splits idle for the idle timeout on
   * with the wall clock, and fires the windows due.
   */
  public TickResult tick() {
    try {
      return engine.tick();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new PipelineFailedException("Pipeline " + name + " failed on a tick: " + e, e);
    }
  }

  /**
   * Processes the records of a Kinesis event (one batch per shard, see {@link
   * SourceBatches#kinesis}) and answers the first failed sequence number of each shard: register it
   * with {@code EntryPoint.Builder#kinesisStream}. By the invocation's deadline, which the entry
   * point passes: a batch stops taking records while a reserve of its time is left, checkpoints
   * what it took and answers the first record it did not take as failed, so that Lambda resumes
   * there ({@link #process(SourceBatch, Deadline)}).
   */
  public BatchConsumer<KinesisRecord> kinesisConsumer() {
    return consumer(
        SourceBatches::kinesis,
        "to Lambda, which hands the shard over again from the first (until the mapping's"
            + " MaximumRetryAttempts; then replay the range givenUp() lists)");
  }

  /**
   * Processes the changes of a DynamoDB Streams event (see {@link SourceBatches#dynamoDb}) and
   * answers the failed sequence numbers (Lambda resumes at the lowest): register it with {@code
   * EntryPoint.Builder#dynamoDbStream}. By the invocation's deadline, which the entry point passes:
   * a batch stops taking changes while a reserve of its time is left, applies what it took and
   * answers the first change it did not take, and every change after it, as failed ({@link
   * #process(SourceBatch, Deadline)}).
   */
  public BatchConsumer<ChangeRecord> dynamoDbConsumer() {
    return consumer(
        SourceBatches::dynamoDb,
        "to Lambda, which hands them over again (until the mapping's MaximumRetryAttempts or the"
            + " stream's 24-hour retention)");
  }

  /**
   * Processes the messages of an SQS event (see {@link SourceBatches#queue}) and answers the failed
   * message ids: register it with {@code EntryPoint.Builder#queue}. By the invocation's deadline,
   * which the entry point passes: a batch stops taking messages while a reserve of its time is
   * left, applies and receipts what it took and answers each message it did not take as failed
   * ({@link #process(SourceBatch, Deadline)}); those come again and count toward the queue's {@code
   * maxReceiveCount} as any message handed back does. A dead-letter queue's message that names the
   * queue it was moved from is taken as that queue's, under its id ({@link SourceBatches#queue});
   * {@link #deadLetterConsumer} also takes those that name none.
   */
  public BatchConsumer<QueueRecord> queueConsumer() {
    return consumer(
        SourceBatches::queue,
        "to the queue (its redrive policy moves a message received maxReceiveCount times to the"
            + " dead-letter queue: read that with deadLetterConsumer)");
  }

  /**
   * Processes the messages of an SQS event from the dead-letter queue of the queue named {@code
   * sourceQueue} as messages of that queue, under their message ids (see {@link
   * SourceBatches#deadLetters}): each is applied once, whether or not a receive of it from the
   * source queue applied it before (its outputs are delivered again from its receipt, or it is
   * applied to the keys that had not applied it), as long as it comes within the pipeline's {@link
   * Builder#retention}, which is how long receipts are kept: give the retention the time dead
   * letters may wait. Register it with {@code EntryPoint.Builder#queue} for the dead-letter queue,
   * on an event source mapping left disabled until the cause is fixed. SQS's own redrive ({@code
   * StartMessageMoveTask}) gives each message a new id, which no receipt knows: a message that was
   * applied before it reached the dead-letter queue (its invocations died after applying it on
   * every receive) would be applied again. A message that names the queue it was moved from (the
   * attribute {@code DeadLetterQueueSourceArn}, in Lambda's events of a dead-letter queue) is taken
   * as that queue's if it is one of those given, so that one dead-letter queue may serve several
   * queues of the pipeline (give them all); a message naming another queue (one moved on from a
   * dead-letter queue's own dead-letter queue names that dead-letter queue) is taken as {@code
   * sourceQueue}'s, with a warning. A message that fails again is answered failed, stays in the
   * dead-letter queue, and its failure is logged as a warning.
   *
   * @param sourceQueue the source queue's name (the last part of its ARN): the messages that name
   *     no queue given are taken as its
   * @param otherSourceQueues the names of the other queues whose redrive policy moves messages to
   *     the same dead-letter queue
   * @throws IllegalArgumentException if one is not a queue's name (a stream's split, a queue's URL)
   */
  public BatchConsumer<QueueRecord> deadLetterConsumer(
      String sourceQueue, String... otherSourceQueues) {
    List<String> queues = new ArrayList<>();
    queues.add(Objects.requireNonNull(sourceQueue, "sourceQueue"));
    queues.addAll(List.of(otherSourceQueues));
    SourceBatches.checkQueueNames(queues);
    List<String> given = List.copyOf(queues);
    return consumer(
        records -> {
          List<String> others = SourceBatches.namingOtherQueues(records, given);
          if (!others.isEmpty()) {
            LOG.warn(
                "Pipeline "
                    + name
                    + ": dead letters "
                    + others
                    + " name a queue they were moved from that is none of "
                    + given
                    + ": taken as messages of "
                    + sourceQueue
                    + ". If that queue's redrive policy moves messages here, give it to"
                    + " deadLetterConsumer too: taken as another queue's, a message applied before"
                    + " meets no receipt and is applied again");
          }
          return SourceBatches.deadLetters(records, given);
        },
        "to the dead-letter queue, which keeps a message until its retention and then deletes it:"
            + " fix the cause, or move them elsewhere before then");
  }

  /**
   * Runs {@link #tick()} on every scheduled event, answering its {@link TickResult}: register it
   * with {@code EntryPoint.Builder#scheduled}.
   */
  public ScheduledTask tickTask() {
    return event -> tick();
  }

  /**
   * A consumer of the batches {@code split} makes of an event's records: without a deadline (a
   * caller of {@link BatchConsumer#accept(List)}), each batch is taken whole. Its answer names the
   * failed records alone, so their failure is logged ({@link FailedRecordsLog}), saying that they
   * go back {@code goesBack}.
   */
  private <R> BatchConsumer<R> consumer(
      Function<List<R>, List<SourceBatch>> split, String goesBack) {
    return BatchConsumer.byDeadline(
        (records, deadline) -> {
          Objects.requireNonNull(deadline, "deadline");
          List<String> failed = new ArrayList<>();
          for (SourceBatch batch : split.apply(records)) {
            BatchResult result = process(batch, deadline);
            FailedRecordsLog.report(name, batch, result, goesBack);
            failed.addAll(result.failedOffsets());
          }
          return BatchOutcome.failed(failed);
        });
  }

  @Override
  public String toString() {
    return "BatchPipeline[" + name + "]";
  }

  /** Builds a {@link BatchPipeline}. */
  public static final class Builder {
    private final String name;
    private final Pipeline pipeline;
    private BatchStore store;
    private Clock clock = Clock.systemUTC();
    private Duration batchTimeout = Duration.ofMinutes(15);
    private Duration retention = Duration.ofDays(1);
    private BatchConcurrency concurrency;
    private Duration stateTtl = Duration.ZERO;
    private int maxCachedKeys = 100_000;
    private int timerPage = 100;
    private BatchFaultHook hook = BatchFaultHook.NONE;
    private EgressSink refusedOutputs;

    private Builder(String name, Pipeline pipeline) {
      Objects.requireNonNull(name, "name");
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "A pipeline's name is 1 to 100 letters, digits, '.', '_' or '-', got '"
                + name
                + "'; e.g. clicks-per-minute");
      }
      this.name = name;
      this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    /** Where keys, splits and timers are kept (required). */
    public Builder store(BatchStore batchStore) {
      this.store = Objects.requireNonNull(batchStore, "store");
      return this;
    }

    /** The wall clock (idle time, retention); the system clock by default. */
    public Builder clock(Clock wallClock) {
      this.clock = Objects.requireNonNull(wallClock, "clock");
      return this;
    }

    /**
     * The longest one invocation runs: the Lambda function's timeout (15 minutes by default, the
     * most Lambda allows). A watermark that did not come from a shard's own last batch (an idle
     * shard's, an SQS queue's) fires windows only this long after it was recorded, when every batch
     * that read the older one has ended. Set it to the function's timeout.
     */
    public Builder batchTimeout(Duration timeout) {
      this.batchTimeout = atLeast(timeout, Duration.ofSeconds(1), "batchTimeout");
      return this;
    }

    /**
     * How long the receipt of an SQS message (or a DynamoDB stream record) is kept, by which a
     * message handed over again is applied once: one day by default. At least the longest a message
     * can come again after it was applied: the queue's visibility timeout times its receive count
     * (DynamoDB Streams: its 24 hours' retention), and as long as its dead letters may wait before
     * {@link BatchPipeline#deadLetterConsumer} reads them. Receipts whose outputs wait for a sink
     * ({@link DeferredMessage}) are written again before it ends. A message SQS's own redrive sends
     * back from a dead-letter queue comes under a new message id, so no retention covers it
     * (docs/pipelines.md).
     */
    public Builder retention(Duration keep) {
      this.retention = atLeast(keep, Duration.ofMinutes(1), "retention");
      return this;
    }

    /**
     * How the independent calls of a batch's steps run. By default all at once on threads (one
     * round trip per step) if the store's calls wait on I/O ({@link BatchStore#callsWait()}), else
     * one after another on the invoking thread. A deterministic simulation gives one that runs them
     * in an order it chooses.
     */
    public Builder concurrency(BatchConcurrency calls) {
      this.concurrency = Objects.requireNonNull(calls, "concurrency");
      return this;
    }

    /**
     * Deletes a key's state this long after its last write (DynamoDB's TTL, within days). By
     * default state is kept until it is empty; a window fired without a record of its key in the
     * batch (from the timer index, or by the tick) leaves its state in the key's item until the
     * key's next record drops it, so a key that gets no more records keeps its last windows for
     * good: set this for keys that come and go.
     */
    public Builder stateTtl(Duration ttl) {
      this.stateTtl = atLeast(ttl, Duration.ofMinutes(1), "stateTtl");
      return this;
    }

    /**
     * Key items kept in memory between batches (100,000 by default): each as stored and, for the
     * keys this process wrote last, also decoded, so that the key's next batch here neither reads
     * nor decodes it. Lower it if keys hold large state and memory is short.
     */
    public Builder maxCachedKeys(int keys) {
      if (keys < 0) {
        throw new IllegalArgumentException("maxCachedKeys is 0 or more, got " + keys);
      }
      this.maxCachedKeys = keys;
      return this;
    }

    /**
     * Timer items one query of the timer index reads (100 by default, 1 to 1,000): a batch or tick
     * that fires windows reads one such page, and fires through where it stops (the rest fires in
     * later rounds); a page holding items of one window end alone is followed by a read of every
     * item of that end. Fewer read less per firing (DynamoDB bills a query by the kilobytes it
     * returns) and fire a backlog over more batches.
     */
    public Builder timerPage(int items) {
      if (items < 1 || items > 1_000) {
        throw new IllegalArgumentException("timerPage is 1 to 1000 items, got " + items);
      }
      this.timerPage = items;
      return this;
    }

    /**
     * Where a result goes that its output's sink refuses for what the record holds (past an SQS
     * message's 256 KiB or a Kinesis record's 1 MiB, past a DynamoDB item's 400 KB), which no retry
     * delivers: {@link RefusedOutput}s (JSON, {@link RefusedOutput#TYPE}) with the record's id,
     * egress, source, size, the sink's reason and the value in parts, and the batch goes on. So
     * does a shard's keyed result too large for its key's item to keep until it is delivered,
     * without its value (a queue's message with such a result fails alone, with or without this,
     * and its redrive policy keeps it). Without it a refused record fails its batch on every try,
     * until Lambda gives the batch up; its range's replay then fails the same way and holds the
     * split's windows until the pipeline's code changes. A failure of the sink itself (unreachable,
     * a missing queue or stream, no permission) names no record and fails the batch either way. A
     * queue with a dead-letter role suits: e.g. {@code new SqsEgressSink(sqs, refusedQueueUrl)}.
     */
    public Builder refusedOutputsTo(EgressSink sink) {
      this.refusedOutputs = Objects.requireNonNull(sink, "sink");
      return this;
    }

    /** A fault-injection hook, for tests. */
    public Builder faultHook(BatchFaultHook faultHook) {
      this.hook = Objects.requireNonNull(faultHook, "faultHook");
      return this;
    }

    /**
     * The pipeline.
     *
     * @throws IllegalStateException if no store was given
     * @throws IllegalArgumentException if the pipeline cannot run batch by batch: more than one
     *     keyBy, a sink that is not an {@link EgressOutput}, windows without watermarks
     */
    public BatchPipeline build() {
      if (store == null) {
        throw new IllegalStateException(
            "Give the pipeline a store: store(new DynamoDbBatchStore(dynamoDb, table)) on Lambda,"
                + " store(new InMemoryBatchStore()) in tests");
      }
      BatchSettings settings =
          new BatchSettings(
              store,
              clock,
              batchTimeout.toMillis(),
              retention.toMillis(),
              stateTtl.toSeconds(),
              maxCachedKeys,
              timerPage,
              hook,
              concurrency != null
                  ? concurrency
                  : store.callsWait() ? BatchConcurrency.threads(16) : new InOrderConcurrency(),
              refusedOutputs);
      return new BatchPipeline(
          name, new BatchEngine(name, pipeline, settings), pipeline, store, clock);
    }

    private static Duration atLeast(Duration value, Duration least, String what) {
      Objects.requireNonNull(value, what);
      if (value.compareTo(least) < 0) {
        throw new IllegalArgumentException(what + " is at least " + least + ", got " + value);
      }
      return value;
    }
  }
}
