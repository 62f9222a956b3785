package dev.statekit.benchmarks.pipeline;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.internal.CostMeter;
import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import dev.statekit.benchmarks.runtime.NetworkDelay;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testservers.AwsClients;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a batch of a pipeline on Lambda costs in DynamoDB: a keyed count in one-hour tumbling
 * windows over Kinesis-shaped batches of one shard, state a few hundred bytes a key, counted by a
 * {@link CostMeter} on the client (requests, capacity units as the responses report them,
 * sequential round trips), against Dynoxide with a network delay on every request. Beside it the
 * naive design: a read and a write per record, one after another, on items of the same size.
 */
public final class PipelineCostSuite implements Suite {
  private static final long NETWORK_MILLIS = 10;
  private static final int WARMUP_BATCHES = 2;
  private static final int BATCHES = 5;
  private static final int STATE_BYTES = 300;

  /**
   * What recording a batch's attempt costs beside its keys and its checkpoint: one transaction of
   * two items under 1 KB (the shard's order item and the attempt's), two write units each.
   */
  private static final int ATTEMPT_WCU = 4;

  @Override
  public String name() {
    return "pipeline-cost";
  }

  @Override
  public String description() {
    return "DynamoDB requests, capacity units and round trips per 1,000 records of a windowed"
        + " pipeline batch on Lambda, against the naive design (read + write per record, serially)";
  }

  @Override
  public List<Result> run(PrintStream log) {
    // Keep a connection per parallel key write alive between batches instead of the JDK's 5 (set
    // before the first connection), as a pipeline function should.
    System.setProperty("http.maxConnections", "512");
    CostMeter meter = new CostMeter();
    DynamoDbClient dynamoDb = AwsClients.dynamoDb(meter, new NetworkDelay(NETWORK_MILLIS));
    String table = "pipeline-cost-" + UUID.randomUUID();
    ApplicationTable.createIfAbsent(dynamoDb, table);
    log.printf("  every request gets %d ms of network delay%n", NETWORK_MILLIS);
    List<Result> results = new ArrayList<>();
    for (int records : new int[] {100, 1000}) {
      for (int keys : new int[] {10, 1000}) {
        results.addAll(measure(meter, dynamoDb, table, records, keys, log));
      }
    }
    return results;
  }

  private List<Result> measure(
      CostMeter meter,
      DynamoDbClient dynamoDb,
      String table,
      int records,
      int keys,
      PrintStream log) {
    String name = "b" + records + "-k" + keys;
    String run = name + "-" + UUID.randomUUID().toString().substring(0, 8);
    BatchPipeline pipeline =
        BatchPipeline.builder(run, counts(run))
            .store(new DynamoDbBatchStore(dynamoDb, table))
            .build();
    Random random = new Random(records * 31L + keys);
    String split = "clicks/shardId-000000000000";
    long sequence = 1;
    double wcu = 0;
    double rcu = 0;
    long requests = 0;
    long measured = 0;
    List<Integer> roundTrips = new ArrayList<>();
    List<Integer> distinct = new ArrayList<>();
    List<String> lastKeys = List.of();
    for (int b = 0; b < WARMUP_BATCHES + BATCHES; b++) {
      SourceBatch.Builder batch = SourceBatch.ordered(split);
      List<String> batchKeys = new ArrayList<>();
      for (int r = 0; r < records; r++) {
        String key = "key-" + random.nextInt(keys);
        batchKeys.add(key);
        // One event-time second per batch: the hour's window stays open through the run.
        long time = b * 1000L + r * 1000L / records;
        batch.add(
            Long.toString(sequence++), time, (key + "," + time).getBytes(StandardCharsets.UTF_8));
      }
      meter.reset();
      BatchResult result = pipeline.process(batch.build());
      CostMeter.Snapshot cost = meter.snapshot();
      if (!result.succeeded() || result.applied() != records) {
        throw new IllegalStateException("A benchmark batch failed: " + result);
      }
      if (b >= WARMUP_BATCHES) {
        measured += records;
        wcu += cost.writeCapacityUnits();
        rcu += cost.readCapacityUnits();
        requests += cost.requestsTo("DynamoDb");
        roundTrips.add(cost.roundTrips());
        distinct.add(new HashSet<>(batchKeys).size());
      }
      lastKeys = batchKeys;
    }
    double batchesPer1k = 1000.0 / records;
    double keysPerBatch = distinct.stream().mapToInt(Integer::intValue).average().orElse(0);
    int medianTrips = median(roundTrips);
    double wcuPer1k = wcu * 1000 / measured;
    double wcuTarget = (1.1 * (keysPerBatch + 1) + ATTEMPT_WCU) * batchesPer1k;

    // The naive design on one batch's records (it is slow: two serial requests a record).
    NaivePipeline naive = new NaivePipeline(dynamoDb, table, STATE_BYTES);
    naive.process(run, lastKeys.subList(0, Math.min(lastKeys.size(), 20))); // creates items
    meter.reset();
    naive.process(run, lastKeys);
    CostMeter.Snapshot naiveCost = meter.snapshot();
    double naiveWcuPer1k = naiveCost.writeCapacityUnits() * 1000 / records;
    double naiveRcuPer1k = naiveCost.readCapacityUnits() * 1000 / records;

    Result ours =
        Result.of(name(), name)
            .with("ddb_requests_per_1k", (double) requests * 1000 / measured)
            .with("wcu_per_1k", wcuPer1k)
            .with("rcu_per_1k", rcu * 1000 / measured)
            .with("round_trips_per_batch", medianTrips)
            .with("distinct_keys_per_batch", keysPerBatch)
            .with("wcu_target_per_1k", wcuTarget)
            .with("wcu_target_met", wcuPer1k <= wcuTarget ? "yes" : "no")
            .with("round_trips_target_met", medianTrips <= 4 ? "yes" : "no")
            .with(
                "capacity_ratio",
                (naiveWcuPer1k + naiveRcuPer1k) / (wcuPer1k + rcu * 1000 / measured))
            .with("round_trip_ratio", (double) naiveCost.roundTrips() / medianTrips);
    Result theirs =
        Result.of(name(), name + "-naive")
            .with("ddb_requests_per_1k", (double) naiveCost.requestsTo("DynamoDb") * 1000 / records)
            .with("wcu_per_1k", naiveWcuPer1k)
            .with("rcu_per_1k", naiveRcuPer1k)
            .with("round_trips_per_batch", naiveCost.roundTrips())
            .with("distinct_keys_per_batch", (double) new HashSet<>(lastKeys).size());
    log.printf(
        "  %-12s statekit: %.1f WCU, %.1f RCU, %.1f requests per 1k records, round trips %s;"
            + " naive: %.1f WCU, %.1f RCU, %d round trips a batch%n",
        name,
        wcuPer1k,
        rcu * 1000 / measured,
        (double) requests * 1000 / measured,
        roundTrips,
        naiveWcuPer1k,
        naiveRcuPer1k,
        naiveCost.roundTrips());
    return List.of(ours, theirs);
  }

  /** The job: a keyed count in one-hour tumbling windows over "key,time" records. */
  static Pipeline counts(String run) {
    EgressSink discard = records -> {};
    return Pipeline.from(BatchSource.records())
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8).split(","))
        .withWatermarks(
            WatermarkStrategy.<String[]>boundedOutOfOrderness(Duration.ofSeconds(5))
                .withTimestamps(parts -> Long.parseLong(parts[1])))
        .keyBy(parts -> parts[0])
        .window(Windows.tumbling(Duration.ofHours(1)))
        .aggregate(
            AggregateFunction.<String[]>count(),
            Serdes.longs(),
            (String key, TimeWindow w, Long n) -> key + "@" + w.start() + "=" + n)
        .to(EgressOutput.to(discard, TypeName.of("bench", run), Types.stringType()));
  }

  private static int median(List<Integer> values) {
    List<Integer> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
