package dev.statekit.benchmarks.cost;

import dev.statekit.benchmarks.Result;
import dev.statekit.benchmarks.Suite;
import dev.statekit.benchmarks.pipeline.PipelineBatchCost;
import dev.statekit.benchmarks.runtime.RuntimeBatchCost;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Dollars a month and a million records at several steady rates: the {@code pipeline-cost} job (a
 * keyed count in windows, state in DynamoDB) on Lambda over a Kinesis stream, for few and many
 * keys, beside the minimum Managed Service for Apache Flink application; the self-hosted runtime
 * fed by a FIFO queue beside a Flink StateFun cluster of the same minimum. Every batch figure is
 * measured here (CPU time, round trips, DynamoDB capacity units as the responses report them, SQS
 * requests) on the embedded servers; the prices are {@link Prices}; the assumptions are printed.
 */
public final class CostSuite implements Suite {
  static final int[] RATES = {1, 10, 100, 1_000, 10_000};
  static final int[] PIPELINE_BATCHES = {1, 10, 100, 500};
  static final int[] KEYS = {10, 1_000};
  static final int[] RUNTIME_BATCHES = {1, 10};

  /** {@code template.yaml}: the Kinesis event source's BatchSize. */
  static final int KINESIS_MAX_BATCH = 500;

  /** {@code template.yaml}: the SQS event source's BatchSize. */
  static final int SQS_MAX_BATCH = 10;

  private static final long NETWORK_MILLIS = 10;

  @Override
  public String name() {
    return "cost";
  }

  @Override
  public String description() {
    return "dollars a month and a million records at published on-demand prices, from measured"
        + " batches, beside the minimum Managed Flink application and a StateFun cluster";
  }

  @Override
  public List<Result> run(PrintStream log) {
    CostModel model =
        new CostModel(
            Double.parseDouble(System.getProperty("statekit.cost.roundTripMillis", "5")),
            Double.parseDouble(System.getProperty("statekit.cost.kpuRecordsPerSecond", "5000")),
            Double.parseDouble(System.getProperty("statekit.cost.recordBytes", "100")));
    log.println("  prices (us-east-1, on-demand, looked up " + Prices.AS_OF + "):");
    Prices.ALL.forEach(p -> log.println(p.line()));
    log.printf(
        Locale.ROOT,
        "  assumed: a %.0f ms round trip to DynamoDB or SQS in the region; the measuring machine's"
            + " core as fast as a 1769 MB function's vCPU; %.0f records a second a Flink KPU;"
            + " records of %.0f bytes; Lambda's Kinesis poller batching a shard's second (window"
            + " 1 s, batch %d), its SQS poller what arrives in a second (batch %d)%n",
        model.roundTripMillis,
        model.recordsPerKpuSecond,
        model.recordBytes,
        KINESIS_MAX_BATCH,
        SQS_MAX_BATCH);

    List<Result> results = new ArrayList<>();
    PipelineBatchCost pipelines = new PipelineBatchCost(NETWORK_MILLIS);
    for (int keys : KEYS) {
      List<BatchCost> measured = new ArrayList<>();
      for (int records : PIPELINE_BATCHES) {
        PipelineBatchCost.Figures f = pipelines.measure(records, keys);
        measured.add(
            new BatchCost(
                records, f.cpuMillis(), f.roundTrips(), f.writeUnits(), f.readUnits(), 0));
        log.printf(
            Locale.ROOT,
            "  measured pipeline batch of %4d records, %4d keys: %.2f ms CPU, %.0f round trips,"
                + " %.1f WCU, %.1f RCU, %.1f DynamoDB requests%n",
            records,
            keys,
            f.cpuMillis(),
            f.roundTrips(),
            f.writeUnits(),
            f.readUnits(),
            f.ddbRequests());
      }
      String workload = "pipeline-k" + keys;
      results.addAll(
          table(
              log,
              workload,
              "Managed Flink (minimum 2 KPU)",
              rate -> model.pipeline(measured, rate, KINESIS_MAX_BATCH),
              model::managedFlink));
    }

    RuntimeBatchCost runtime = new RuntimeBatchCost();
    List<BatchCost> measured = new ArrayList<>();
    for (int messages : RUNTIME_BATCHES) {
      RuntimeBatchCost.Figures f = runtime.measure(messages);
      double sqs = f.runtimeSqsRequests() + f.pollerSqsRequests() + f.producerSqsRequests();
      measured.add(
          new BatchCost(
              messages, f.cpuMillis(), f.roundTrips(), f.writeUnits(), f.readUnits(), sqs));
      log.printf(
          Locale.ROOT,
          "  measured runtime batch of %2d messages: %.2f ms CPU, %.0f round trips, %.1f WCU,"
              + " %.1f RCU, %.1f DynamoDB requests, SQS requests %.1f (runtime) + %.1f (poller)"
              + " + %.1f (producer)%n",
          messages,
          f.cpuMillis(),
          f.roundTrips(),
          f.writeUnits(),
          f.readUnits(),
          f.ddbRequests(),
          f.runtimeSqsRequests(),
          f.pollerSqsRequests(),
          f.producerSqsRequests());
    }
    results.addAll(
        table(
            log,
            "runtime",
            "StateFun cluster (minimum 2 KPU)",
            rate -> model.runtime(measured, rate, SQS_MAX_BATCH),
            model::stateFunCluster));
    return results;
  }

  private List<Result> table(
      PrintStream log,
      String workload,
      String peer,
      CostModel.Monthly ours,
      CostModel.Monthly theirs) {
    List<Result> results = new ArrayList<>();
    log.printf(
        Locale.ROOT,
        "  %s: StateKit on Lambda vs %s, dollars a month (and a million records or messages)%n",
        workload,
        peer);
    for (int rate : RATES) {
      double statekit = ours.at(rate);
      double flink = theirs.at(rate);
      log.printf(
          Locale.ROOT,
          "    %,7d/s  StateKit %10.2f (%8.4f)   %s %10.2f (%8.4f)%n",
          rate,
          statekit,
          CostModel.perMillion(statekit, rate),
          peer.startsWith("Managed") ? "Flink" : "StateFun",
          flink,
          CostModel.perMillion(flink, rate));
      results.add(
          Result.of(name(), workload + "-r" + rate)
              .with("rate_per_second", rate)
              .with("statekit_usd_month", statekit)
              .with("flink_usd_month", flink)
              .with("statekit_usd_per_million", CostModel.perMillion(statekit, rate))
              .with("flink_usd_per_million", CostModel.perMillion(flink, rate))
              .with("ratio_flink_to_statekit", flink / statekit));
    }
    double breakEven = CostModel.breakEven(ours, theirs, 100_000);
    log.printf(
        Locale.ROOT,
        "    break-even: %s%n",
        Double.isNaN(breakEven)
            ? "none up to 100,000 a second"
            : String.format(
                Locale.ROOT,
                "%.1f a second (%.0f million a month)",
                breakEven,
                breakEven * CostModel.MONTH_SECONDS / 1e6));
    Result result = Result.of(name(), workload + "-break-even");
    if (Double.isNaN(breakEven)) {
      result.with("rate_per_second", "none-below-100000");
    } else {
      result
          .with("rate_per_second", breakEven)
          .with("usd_month", ours.at(breakEven))
          .with("millions_per_month", breakEven * CostModel.MONTH_SECONDS / 1e6);
    }
    results.add(result);
    return results;
  }
}
