package dev.statekit.benchmarks.cost;

import java.util.List;

/**
 * Monthly dollars at a steady rate, from measured batches: the StateKit side on Lambda (requests,
 * duration at the function's memory, DynamoDB capacity, SQS requests, the Kinesis stream), the
 * Flink side (KPUs always on, the same stream). Every assumption is a field, printed by the suite.
 */
final class CostModel {
  /** Hours in a month as AWS bills them. */
  static final double MONTH_HOURS = 730;

  static final double MONTH_SECONDS = MONTH_HOURS * 3600;

  /** The function's memory ({@code template.yaml}: 1769 MB, one full vCPU). */
  static final double LAMBDA_MEMORY_GB = 1769 / 1024.0;

  /** The function time one sequential round trip to DynamoDB or SQS in the region costs. */
  final double roundTripMillis;

  /** Records a second one Flink KPU (one vCPU) keeps up with on the job. */
  final double recordsPerKpuSecond;

  /** Bytes of one record on the stream (a PUT payload unit is 25 KB; a shard takes 1 MB/s). */
  final double recordBytes;

  CostModel(double roundTripMillis, double recordsPerKpuSecond, double recordBytes) {
    this.roundTripMillis = roundTripMillis;
    this.recordsPerKpuSecond = recordsPerKpuSecond;
    this.recordBytes = recordBytes;
  }

  /** Shards of a provisioned stream for {@code rate} records a second: 1,000 and 1 MB a shard. */
  double shards(double rate) {
    return Math.max(1, Math.ceil(Math.max(rate / 1000, rate * recordBytes / (1024.0 * 1024))));
  }

  /** The Kinesis stream at {@code rate}: shard-hours and a PUT payload unit per record. */
  double kinesis(double rate) {
    double units = Math.ceil(recordBytes / (25 * 1024.0));
    return shards(rate) * MONTH_HOURS * Prices.KINESIS_SHARD_HOUR.dollars()
        + rate * MONTH_SECONDS * units * Prices.KINESIS_PUT_UNIT.dollars();
  }

  /**
   * Lambda and the services it calls for {@code batchesPerSecond} batches like {@code batch}:
   * requests, duration (CPU plus round trips, rounded up to the millisecond as Lambda bills),
   * DynamoDB capacity and SQS requests.
   */
  double lambda(BatchCost batch, double batchesPerSecond) {
    double invocations = batchesPerSecond * MONTH_SECONDS;
    double millis = Math.ceil(batch.cpuMillis() + batch.roundTrips() * roundTripMillis);
    return invocations
        * (Prices.LAMBDA_REQUEST.dollars()
            + millis / 1000 * LAMBDA_MEMORY_GB * Prices.LAMBDA_GB_SECOND.dollars()
            + batch.writeUnits() * Prices.DYNAMODB_WRITE.dollars()
            + batch.readUnits() * Prices.DYNAMODB_READ.dollars()
            + batch.sqsRequests() * Prices.SQS_FIFO_REQUEST.dollars());
  }

  /**
   * A pipeline on Lambda over a Kinesis stream at {@code rate} records a second: Lambda's poller
   * hands each shard's records over at most once a second ({@code MaximumBatchingWindowInSeconds:
   * 1}), up to {@code maxBatch} a batch, so a slow stream makes small batches.
   */
  double pipeline(List<BatchCost> measured, double rate, int maxBatch) {
    double shards = shards(rate);
    double perShard = rate / shards;
    double records = Math.max(1, Math.min(maxBatch, perShard));
    BatchCost batch = BatchCost.at(measured, records);
    return lambda(batch, rate / records) + kinesis(rate);
  }

  /**
   * The runtime on Lambda fed by a FIFO queue at {@code rate} messages a second: batches of what
   * arrived in a second, up to {@code maxBatch}.
   */
  double runtime(List<BatchCost> measured, double rate, int maxBatch) {
    double messages = Math.max(1, Math.min(maxBatch, rate));
    return lambda(BatchCost.at(measured, messages), rate / messages);
  }

  /**
   * Managed Service for Apache Flink at {@code rate}: the KPUs the rate needs (one at least) and
   * the orchestration KPU, always on, 50 GB of running storage a KPU, reading the same stream.
   */
  double managedFlink(double rate) {
    double kpus = Math.max(1, Math.ceil(rate / recordsPerKpuSecond));
    return (kpus + 1) * MONTH_HOURS * Prices.FLINK_KPU_HOUR.dollars()
        + kpus * 50 * Prices.FLINK_RUNNING_STORAGE.dollars()
        + kinesis(rate);
  }

  /**
   * A Flink StateFun cluster of the same minimum (two KPUs' worth, always on), its ingress a
   * Kinesis stream, its remote functions on Lambda behind a function URL: a request a message
   * (StateFun batches per address, and each message here has its own), billed Lambda's minimum
   * millisecond.
   */
  double stateFunCluster(double rate) {
    double requests = rate * MONTH_SECONDS;
    return managedFlink(rate)
        + requests
            * (Prices.LAMBDA_REQUEST.dollars()
                + 0.001 * LAMBDA_MEMORY_GB * Prices.LAMBDA_GB_SECOND.dollars());
  }

  /** Dollars a million records at {@code rate} for a monthly cost. */
  static double perMillion(double monthly, double rate) {
    return monthly / (rate * MONTH_SECONDS / 1e6);
  }

  /** A monthly cost as a function of the rate. */
  interface Monthly {
    double at(double rate);
  }

  /**
   * The lowest rate at which {@code ours} costs as much as {@code theirs} (between 0.001 and {@code
   * max} records a second), or {@code NaN} if ours stays cheaper up to {@code max}.
   */
  static double breakEven(Monthly ours, Monthly theirs, double max) {
    double low = 0.001;
    if (ours.at(low) >= theirs.at(low)) {
      return low;
    }
    // Scan by factors of 1.25 for the first rate where ours is dearer, then bisect.
    double high = low;
    while (high < max) {
      double next = Math.min(max, high * 1.25);
      if (ours.at(next) >= theirs.at(next)) {
        low = high;
        high = next;
        for (int i = 0; i < 60; i++) {
          double mid = Math.sqrt(low * high);
          if (ours.at(mid) >= theirs.at(mid)) {
            high = mid;
          } else {
            low = mid;
          }
        }
        return high;
      }
      high = next;
    }
    return Double.NaN;
  }
}
