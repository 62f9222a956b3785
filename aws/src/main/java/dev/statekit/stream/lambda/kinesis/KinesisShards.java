package dev.statekit.stream.lambda.kinesis;

import dev.statekit.event.BatchConsumer;
import dev.statekit.event.KinesisRecord;
import dev.statekit.event.ScheduledTask;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.TickResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.InvalidArgumentException;
import software.amazon.awssdk.services.kinesis.model.ListShardsResponse;
import software.amazon.awssdk.services.kinesis.model.Shard;

/**
 * Keeps a {@link BatchPipeline} told of every shard of the Kinesis stream it reads, so that no
 * window fires while a shard that has not had its first batch could still hold records for it.
 *
 * <p>It lists the shards ({@code ListShards}) when a batch comes from a shard this process does not
 * know yet (the first batch after a cold start, or a shard made by a reshard), and on every
 * scheduled tick; shards it has not registered before go to {@link BatchPipeline#registerSplits}.
 * Nothing is called in the constructor: under SnapStart the first call happens after the restore,
 * on a connection opened then. The tick's listing is what makes a reshard safe: the new shards are
 * registered within a minute of the reshard, while their parent still holds the pipeline's
 * watermark back, instead of at their own first batch, which may come after the parent went idle
 * and the watermark moved past their records.
 *
 * <pre>{@code
 * KinesisShards shards = new KinesisShards(kinesis, "transactions", pipeline);
 * EntryPoint.builder()
 *     .kinesisStream("transactions", shards.kinesisConsumer())
 *     .scheduled("fraud-check-tick", shards.tickTask())
 *     .build();
 * }</pre>
 *
 * The function needs {@code kinesis:ListShards} on the stream. Thread-safe.
 */
public final class KinesisShards {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(KinesisShards.class);

  private final KinesisClient kinesis;
  private final String stream;

  /** The stream as given: an ARN names it in its own account, where a bare name means ours. */
  private final String given;

  /** Set once the service refused the stream's ARN in ListShards (an emulator). */
  private volatile boolean byNameOnly;

  private final BatchPipeline pipeline;
  private final Set<String> known = ConcurrentHashMap.newKeySet();

  /**
   * Registers the shards of {@code stream} (its name or ARN) with {@code pipeline}.
   *
   * @param kinesis the client that lists the shards; it opens no connection until the first call
   */
  public KinesisShards(KinesisClient kinesis, String stream, BatchPipeline pipeline) {
    this.kinesis = Objects.requireNonNull(kinesis, "kinesis");
    this.given = Objects.requireNonNull(stream, "stream");
    this.stream = KinesisRecord.streamName(stream);
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
  }

  /**
   * The pipeline's {@link BatchPipeline#kinesisConsumer()}, registering the stream's shards first
   * when a batch comes from a shard not registered by this process. It hands the pipeline the
   * invocation's deadline, by which a batch stops taking records.
   */
  public BatchConsumer<KinesisRecord> kinesisConsumer() {
    BatchConsumer<KinesisRecord> records = pipeline.kinesisConsumer();
    return BatchConsumer.byDeadline(
        (batch, deadline) -> {
          registerShardsOf(batch);
          return records.accept(batch, deadline);
        });
  }

  private void registerShardsOf(List<KinesisRecord> batch) {
    List<String> splits = new ArrayList<>();
    batch.forEach(r -> splits.add(r.streamName() + "/" + r.shardId()));
    if (!known.containsAll(splits)) {
      try {
        register();
      } catch (IllegalStateException e) {
        // Failing the batch would spend Lambda's retries and could send its records to the
        // on-failure queue unapplied; without the listing a sibling shard only risks being late
        // until the next tick lists again.
        LOG.warn(e.getMessage() + "; the batch goes on, the next tick lists the shards again");
      }
      // A shard the listing did not show (not there yet, another stream): it joins with its
      // batch, and no listing is repeated for it on every batch.
      known.addAll(splits);
    }
  }

  /**
   * The pipeline's {@link BatchPipeline#tickTask()}, registering new shards first. A failed listing
   * fails the task, after the tick ran: idle shards still move on.
   */
  public ScheduledTask tickTask() {
    return event -> {
      IllegalStateException unlisted = null;
      try {
        register();
      } catch (IllegalStateException e) {
        unlisted = e;
      }
      TickResult ticked = pipeline.tick();
      if (unlisted != null) {
        throw unlisted;
      }
      return ticked;
    };
  }

  /**
   * Lists the stream's shards and registers those this process has not registered yet.
   *
   * @return the shards the pipeline did not know before
   * @throws IllegalStateException if the shards could not be listed
   */
  public List<String> register() {
    List<String> unseen = new ArrayList<>();
    for (String split : list()) {
      if (!known.contains(split)) {
        unseen.add(split);
      }
    }
    if (unseen.isEmpty()) {
      return List.of();
    }
    List<String> added = pipeline.registerSplits(unseen);
    known.addAll(unseen);
    return added;
  }

  private List<String> list() {
    List<String> splits = new ArrayList<>();
    String next = null;
    try {
      do {
        ListShardsResponse page = page(next);
        for (Shard shard : page.shards()) {
          splits.add(stream + "/" + shard.shardId());
        }
        next = page.nextToken();
      } while (next != null);
    } catch (SdkException e) {
      throw new IllegalStateException(
          "Could not list the shards of the Kinesis stream "
              + given
              + " for pipeline "
              + pipeline.name()
              + " ("
              + e.getMessage()
              + "); the function needs kinesis:ListShards on the stream. The batch is retried.",
          e);
    }
    return splits;
  }

  /**
   * One page of the listing: the first names the stream by its ARN when given one (a bare name
   * means the caller's account), the others only by the token. A service that takes no ARN there
   * (kinesalite, the local runner's) is asked by name from then on.
   */
  private ListShardsResponse page(String token) {
    if (token != null) {
      return kinesis.listShards(b -> b.nextToken(token));
    }
    if (given.startsWith("arn:") && !byNameOnly) {
      try {
        return kinesis.listShards(b -> b.streamARN(given));
      } catch (InvalidArgumentException e) {
        if (!String.valueOf(e.getMessage()).contains("StreamName")) {
          throw e;
        }
        byNameOnly = true;
      }
    }
    return kinesis.listShards(b -> b.streamName(stream));
  }

  @Override
  public String toString() {
    return "KinesisShards[" + stream + " -> " + pipeline.name() + "]";
  }
}
