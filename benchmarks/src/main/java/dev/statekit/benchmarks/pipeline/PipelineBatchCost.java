package dev.statekit.benchmarks.pipeline;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.aws.internal.CostMeter;
import dev.statekit.benchmarks.CpuClock;
import dev.statekit.benchmarks.runtime.NetworkDelay;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import dev.statekit.testservers.AwsClients;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The {@code pipeline-cost} suite's job (a keyed count in one-hour windows, its state and
 * checkpoints in DynamoDB) measured per batch for the {@code cost} suite: CPU time, DynamoDB
 * requests and capacity units as the responses report them, sequential round trips.
 */
public final class PipelineBatchCost {
  /** What one batch cost, averaged over the measured batches. */
  public record Figures(
      int records,
      int keys,
      double cpuMillis,
      double ddbRequests,
      double writeUnits,
      double readUnits,
      double roundTrips) {}

  /** Unmeasured batches first: the JIT compiles the request path (small batches make few). */
  private static final int WARMUP_BATCHES = 20;

  private static final int BATCHES = 10;

  private final CostMeter meter = new CostMeter();
  private final DynamoDbClient dynamoDb;
  private final String table = "cost-pipeline-" + UUID.randomUUID();

  /** A fresh table on the embedded DynamoDB, every request delayed as in one region. */
  public PipelineBatchCost(long networkMillis) {
    System.setProperty("http.maxConnections", "512");
    dynamoDb = AwsClients.dynamoDb(meter, new NetworkDelay(networkMillis));
    ApplicationTable.createIfAbsent(dynamoDb, table);
  }

  /** Batches of {@code records} records over {@code keys} keys, one shard, steady state. */
  public Figures measure(int records, int keys) {
    String run = "c" + records + "-k" + keys + "-" + UUID.randomUUID().toString().substring(0, 8);
    BatchPipeline pipeline =
        BatchPipeline.builder(run, PipelineCostSuite.counts(run))
            .store(new DynamoDbBatchStore(dynamoDb, table))
            .build();
    Random random = new Random(records * 31L + keys);
    long sequence = 1;
    long cpu = 0;
    double requests = 0;
    double wcu = 0;
    double rcu = 0;
    List<Integer> trips = new ArrayList<>();
    for (int b = 0; b < WARMUP_BATCHES + BATCHES; b++) {
      SourceBatch.Builder batch = SourceBatch.ordered("clicks/shardId-000000000000");
      for (int r = 0; r < records; r++) {
        String key = "key-" + random.nextInt(keys);
        long time = b * 1000L + r * 1000L / records;
        batch.add(
            Long.toString(sequence++), time, (key + "," + time).getBytes(StandardCharsets.UTF_8));
      }
      SourceBatch built = batch.build();
      meter.reset();
      long before = CpuClock.nanos();
      BatchResult result = pipeline.process(built);
      long spent = CpuClock.nanos() - before;
      CostMeter.Snapshot cost = meter.snapshot();
      if (!result.succeeded() || result.applied() != records) {
        throw new IllegalStateException("A cost batch failed: " + result);
      }
      if (b >= WARMUP_BATCHES) {
        cpu += spent;
        requests += cost.requestsTo("DynamoDb");
        wcu += cost.writeCapacityUnits();
        rcu += cost.readCapacityUnits();
        trips.add(cost.roundTrips());
      }
    }
    trips.sort(null);
    return new Figures(
        records,
        keys,
        cpu / 1e6 / BATCHES,
        requests / BATCHES,
        wcu / BATCHES,
        rcu / BATCHES,
        trips.get(trips.size() / 2));
  }
}
