package dev.statekit.application;

import dev.statekit.Deadline;
import dev.statekit.event.BatchConsumer;
import dev.statekit.event.BatchOutcome;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.ScheduledTask;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.SourceBatches;
import dev.statekit.stream.lambda.TickResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pipeline of an {@link InMemoryApplication} and what its batches and ticks did since it started,
 * for a console: the store keeps positions and watermarks ({@link BatchPipeline#splits()}), these
 * the totals no store keeps. Thread-safe.
 */
public final class PipelineActivity {
  private final BatchPipeline pipeline;
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong applied = new AtomicLong();
  private final AtomicLong repeats = new AtomicLong();
  private final AtomicLong late = new AtomicLong();
  private final AtomicLong windowsFired = new AtomicLong();
  private final AtomicLong failedBatches = new AtomicLong();
  private final AtomicLong ticks = new AtomicLong();

  PipelineActivity(BatchPipeline pipeline) {
    this.pipeline = pipeline;
  }

  /** The pipeline. */
  public BatchPipeline pipeline() {
    return pipeline;
  }

  /** Batches processed (one per shard of each Kinesis event). */
  public long batches() {
    return batches.get();
  }

  /** Records applied to state. */
  public long applied() {
    return applied.get();
  }

  /** Records skipped as repeats of records applied before. */
  public long repeats() {
    return repeats.get();
  }

  /** Records that arrived after every window they belong to had closed, and were dropped. */
  public long late() {
    return late.get();
  }

  /** Window results emitted, by batches and ticks. */
  public long windowsFired() {
    return windowsFired.get();
  }

  /** Batches that reported failed records or threw. */
  public long failedBatches() {
    return failedBatches.get();
  }

  /** Ticks run. */
  public long ticks() {
    return ticks.get();
  }

  /** The pipeline's Kinesis consumer, counting; by the invocation's deadline, as the pipeline's. */
  BatchConsumer<KinesisRecord> kinesisConsumer() {
    return BatchConsumer.byDeadline(
        (records, deadline) -> {
          List<String> failed = new ArrayList<>();
          for (SourceBatch batch : SourceBatches.kinesis(records)) {
            failed.addAll(counted(batch, deadline).failedOffsets());
          }
          return BatchOutcome.failed(failed);
        });
  }

  private BatchResult counted(SourceBatch batch, Deadline deadline) {
    BatchResult result;
    try {
      result = pipeline.process(batch, deadline);
    } catch (RuntimeException e) {
      failedBatches.incrementAndGet();
      throw e;
    }
    batches.incrementAndGet();
    applied.addAndGet(result.applied());
    repeats.addAndGet(result.repeats());
    late.addAndGet(result.late());
    windowsFired.addAndGet(result.windowsFired());
    if (!result.succeeded()) {
      failedBatches.incrementAndGet();
    }
    return result;
  }

  /** The pipeline's tick, counting. */
  ScheduledTask tickTask() {
    return event -> {
      TickResult result = pipeline.tick();
      ticks.incrementAndGet();
      windowsFired.addAndGet(result.windowsFired());
      return result;
    };
  }
}
