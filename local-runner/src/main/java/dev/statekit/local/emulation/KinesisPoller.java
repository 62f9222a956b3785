package dev.statekit.local.emulation;

import dev.statekit.aws.events.EventWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * What Lambda's Kinesis event source mapping does, for one stream: each shard is read in order into
 * batches (up to the batch size, waiting up to the batching window), one invocation at a time per
 * shard. After {@code batchItemFailures} the shard is read again from the first failed record;
 * after a function error, the whole batch is retried. Nothing is skipped.
 */
public final class KinesisPoller extends PollLoop {
  private static final long IDLE_POLL_MILLIS = 1000;

  private final KinesisClient kinesis;
  private final Settings settings;
  private final Invoker function;
  private final Activity activity;
  private final Map<String, String> iterators = new LinkedHashMap<>();

  /**
   * How the mapping is configured.
   *
   * @param name the event's name, for the log
   * @param streamName the stream
   * @param streamArn the stream's ARN, as events carry it
   * @param region the region events carry
   * @param batchSize the most records per invocation
   * @param batchingWindowSeconds how long to wait to fill a batch
   * @param latest start at the end of each shard ({@code LATEST}) rather than its start
   */
  public record Settings(
      String name,
      String streamName,
      String streamArn,
      String region,
      int batchSize,
      int batchingWindowSeconds,
      boolean latest) {}

  /** Reads for {@code function}. */
  public KinesisPoller(
      KinesisClient kinesis, Settings settings, Invoker function, Activity activity) {
    super(settings.name(), activity, IDLE_POLL_MILLIS);
    this.kinesis = kinesis;
    this.settings = settings;
    this.function = function;
    this.activity = activity;
  }

  @Override
  protected boolean pollOnce() {
    if (iterators.isEmpty()) {
      openShards();
    }
    boolean anything = false;
    for (String shard : List.copyOf(iterators.keySet())) {
      anything |= pollShard(shard);
    }
    return anything;
  }

  private void openShards() {
    for (Shard shard : kinesis.listShards(b -> b.streamName(settings.streamName())).shards()) {
      iterators.put(
          shard.shardId(),
          kinesis
              .getShardIterator(
                  b ->
                      b.streamName(settings.streamName())
                          .shardId(shard.shardId())
                          .shardIteratorType(
                              settings.latest()
                                  ? ShardIteratorType.LATEST
                                  : ShardIteratorType.TRIM_HORIZON))
              .shardIterator());
    }
  }

  /** Reads one batch of one shard and invokes the function with it; false if there was none. */
  boolean pollShard(String shard) {
    List<Record> batch = new ArrayList<>();
    long deadline = System.currentTimeMillis() + settings.batchingWindowSeconds() * 1000L;
    String iterator = iterators.get(shard);
    while (iterator != null) {
      String current = iterator;
      int wanted = settings.batchSize() - batch.size();
      GetRecordsResponse response =
          kinesis.getRecords(b -> b.shardIterator(current).limit(Math.min(10_000, wanted)));
      batch.addAll(response.records());
      iterator = response.nextShardIterator();
      if (batch.size() >= settings.batchSize()
          || System.currentTimeMillis() >= deadline
          || !running()) {
        break;
      }
      pause(Math.min(200, Math.max(0, deadline - System.currentTimeMillis())));
    }
    if (batch.isEmpty()) {
      iterators.put(shard, iterator);
      return false;
    }
    String retryFrom = invoke(shard, batch);
    iterators.put(shard, retryFrom == null ? iterator : at(shard, retryFrom));
    return true;
  }

  /** Invokes with one batch; the sequence number to read again from, or null if all succeeded. */
  private String invoke(String shard, List<Record> batch) {
    byte[] event = EventWriter.kinesis(batch, shard, settings.streamArn(), settings.region());
    try {
      List<String> failures = EventWriter.batchItemFailures(function.invoke(event));
      if (failures == null || failures.isEmpty()) {
        activity.log(settings.name(), shard + ": " + batch.size() + " record(s) done");
        return null;
      }
      String first =
          failures.stream().min(dev.statekit.stream.SourcePosition::compareOffsets).orElseThrow();
      activity.log(
          settings.name(),
          shard
              + ": "
              + batch.size()
              + " record(s), failed from "
              + first
              + ": read again from there");
      return first;
    } catch (RuntimeException e) {
      activity.log(
          settings.name(),
          shard + ": function error (" + e.getMessage() + "): the batch is retried in 1 s");
      pause(1000);
      return batch.get(0).sequenceNumber();
    }
  }

  private String at(String shard, String sequenceNumber) {
    return kinesis
        .getShardIterator(
            b ->
                b.streamName(settings.streamName())
                    .shardId(shard)
                    .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                    .startingSequenceNumber(sequenceNumber))
        .shardIterator();
  }
}
