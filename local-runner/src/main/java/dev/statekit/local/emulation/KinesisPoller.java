package dev.statekit.local.emulation;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.aws.events.EventWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * What Lambda's Kinesis event source mapping does, for one stream: each shard is read in order into
 * batches (up to the batch size and Lambda's 6 MB payload, waiting up to the batching window), one
 * invocation at a time per shard, and a shard's children once it is closed and read to its end
 * (after a split or merge). With {@code ReportBatchItemFailures}, after {@code batchItemFailures}
 * the shard is read again from the first failed record (without it, the answer is not read and the
 * batch is done); after a function error, the whole batch is retried. After {@code
 * MaximumRetryAttempts} retries of a batch (unbounded by default), it is given up: recorded in the
 * {@code OnFailure} destination, and the shard read on past it.
 */
public final class KinesisPoller extends PollLoop {
  private static final long IDLE_POLL_MILLIS = 1000;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a batch's records may take in an event: Lambda's 6 MB payload, less room for the rest. */
  private static final long EVENT_BUDGET = 6L * 1024 * 1024 - 64 * 1024;

  /** About the bytes a record takes in an event beside its data and partition key. */
  private static final int RECORD_OVERHEAD = 512;

  private final KinesisClient kinesis;
  private final Settings settings;
  private final Invoker function;
  private final Activity activity;
  private final Map<String, String> iterators = new LinkedHashMap<>();

  /** Shards read to their end after they closed: their children may be read. */
  private final Set<String> finished = new HashSet<>();

  /** The retries of each shard's failing batch so far. */
  private final Map<String, Integer> retries = new HashMap<>();

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
   * @param reportsFailures whether the answer's {@code batchItemFailures} are read ({@code
   *     FunctionResponseTypes: [ReportBatchItemFailures]})
   * @param maxRetryAttempts retries of a failing batch before it is given up; -1 for no bound
   * @param onFailure takes the record of a given-up batch (its {@code OnFailure} destination), or
   *     null
   */
  public record Settings(
      String name,
      String streamName,
      String streamArn,
      String region,
      int batchSize,
      int batchingWindowSeconds,
      boolean latest,
      boolean reportsFailures,
      int maxRetryAttempts,
      Consumer<String> onFailure) {}

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
    boolean closed = false;
    for (String shard : List.copyOf(iterators.keySet())) {
      anything |= pollShard(shard);
      if (iterators.get(shard) == null) {
        // Closed by a split or merge and read to its end: its records go on in its children.
        iterators.remove(shard);
        finished.add(shard);
        closed = true;
      }
    }
    if (closed) {
      openShards();
    }
    return anything;
  }

  /**
   * Opens the shards not read yet whose parents are read to their end (or gone): at the start (or
   * end, for {@code LATEST}) of each at the first listing, a child at its start.
   */
  private void openShards() {
    boolean first = iterators.isEmpty() && finished.isEmpty();
    List<Shard> shards = kinesis.listShards(b -> b.streamName(settings.streamName())).shards();
    Set<String> listed = new HashSet<>();
    shards.forEach(shard -> listed.add(shard.shardId()));
    for (Shard shard : shards) {
      String id = shard.shardId();
      if (iterators.containsKey(id)
          || finished.contains(id)
          || unread(shard.parentShardId(), listed)
          || unread(shard.adjacentParentShardId(), listed)) {
        continue;
      }
      boolean latest = first && settings.latest();
      iterators.put(
          id,
          kinesis
              .getShardIterator(
                  b ->
                      b.streamName(settings.streamName())
                          .shardId(id)
                          .shardIteratorType(
                              latest ? ShardIteratorType.LATEST : ShardIteratorType.TRIM_HORIZON))
              .shardIterator());
    }
  }

  /** True if {@code parent} is a listed shard not yet read to its end. */
  private boolean unread(String parent, Set<String> listed) {
    return parent != null && listed.contains(parent) && !finished.contains(parent);
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
    int fitting = withinPayload(batch);
    if (fitting < batch.size()) {
      // Lambda invokes once a batch reaches its payload limit: the rest is read again next time.
      iterator = at(shard, batch.get(fitting).sequenceNumber());
      batch = new ArrayList<>(batch.subList(0, fitting));
    }
    String retryFrom = invoke(shard, batch);
    if (retryFrom == null) {
      retries.remove(shard);
      iterators.put(shard, iterator);
      return true;
    }
    int retried = retries.merge(shard, 1, Integer::sum);
    if (settings.maxRetryAttempts() >= 0 && retried > settings.maxRetryAttempts()) {
      retries.remove(shard);
      giveUp(shard, retryFrom, batch);
      iterators.put(shard, iterator);
    } else {
      iterators.put(shard, at(shard, retryFrom));
    }
    return true;
  }

  /**
   * How many of the batch's first records fit in one event within Lambda's payload limit (at least
   * one: a Kinesis record is far smaller), reckoned from their data in base64 and their partition
   * keys at their most escaped.
   */
  static int withinPayload(List<Record> batch) {
    long bytes = 0;
    for (int i = 0; i < batch.size(); i++) {
      Record record = batch.get(i);
      bytes +=
          4L * ((record.data().asByteArrayUnsafe().length + 2) / 3)
              + 6L * record.partitionKey().length()
              + RECORD_OVERHEAD;
      if (i > 0 && bytes > EVENT_BUDGET) {
        return i;
      }
    }
    return batch.size();
  }

  /**
   * Gives up the batch from {@code from}: its record, as Lambda writes one, goes to the {@code
   * OnFailure} destination, and the shard is read on after it.
   */
  private void giveUp(String shard, String from, List<Record> batch) {
    String last = batch.get(batch.size() - 1).sequenceNumber();
    activity.log(
        settings.name(),
        shard
            + ": gave up "
            + from
            + " to "
            + last
            + " after "
            + settings.maxRetryAttempts()
            + " retries"
            + (settings.onFailure() == null ? " (no OnFailure destination)" : ", recorded"));
    if (settings.onFailure() != null) {
      settings.onFailure().accept(givenUpRecord(shard, from, last, batch));
    }
  }

  /** What Lambda writes to an {@code OnFailure} destination for a given-up Kinesis batch. */
  private String givenUpRecord(String shard, String from, String last, List<Record> batch) {
    ObjectNode record = JSON.createObjectNode();
    ObjectNode request = record.putObject("requestContext");
    request.put("requestId", UUID.randomUUID().toString());
    request.put("condition", "RetryAttemptsExhausted");
    request.put("approximateInvokeCount", settings.maxRetryAttempts() + 1);
    ObjectNode response = record.putObject("responseContext");
    response.put("statusCode", 200);
    response.put("executedVersion", "$LATEST");
    response.put("functionError", "Unhandled");
    record.put("version", "1.0");
    record.put("timestamp", Instant.now().toString());
    ObjectNode info = record.putObject("KinesisBatchInfo");
    info.put("shardId", shard);
    info.put("startSequenceNumber", from);
    info.put("endSequenceNumber", last);
    info.put(
        "approximateArrivalOfFirstRecord", batch.get(0).approximateArrivalTimestamp().toString());
    info.put(
        "approximateArrivalOfLastRecord",
        batch.get(batch.size() - 1).approximateArrivalTimestamp().toString());
    info.put("batchSize", batch.size());
    info.put("streamArn", settings.streamArn());
    return record.toString();
  }

  /** Invokes with one batch; the sequence number to read again from, or null if all succeeded. */
  private String invoke(String shard, List<Record> batch) {
    byte[] event = EventWriter.kinesis(batch, shard, settings.streamArn(), settings.region());
    try {
      List<String> failures = EventWriter.batchItemFailures(function.invoke(event));
      if (failures == null || failures.isEmpty() || !settings.reportsFailures()) {
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
