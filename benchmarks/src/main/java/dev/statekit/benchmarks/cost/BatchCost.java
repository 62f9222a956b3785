package dev.statekit.benchmarks.cost;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What one Lambda invocation's batch costs, as measured: its size, CPU time, sequential round
 * trips, DynamoDB capacity units and SQS requests.
 *
 * @param records records or messages in the batch
 * @param cpuMillis CPU time of the function's code
 * @param roundTrips sequential round trips to AWS services
 * @param writeUnits DynamoDB write request units
 * @param readUnits DynamoDB read request units
 * @param sqsRequests SQS requests (the poller's, the function's and the producer's)
 */
record BatchCost(
    double records,
    double cpuMillis,
    double roundTrips,
    double writeUnits,
    double readUnits,
    double sqsRequests) {

  /**
   * The batch of {@code records} between measured sizes: each figure interpolated on the logarithm
   * of the size (batches of 1, 10 and 100 records are measured, not 3 or 30); below the smallest or
   * above the largest measured size, the figures per record of the nearest one.
   */
  static BatchCost at(List<BatchCost> measured, double records) {
    List<BatchCost> sorted = new ArrayList<>(measured);
    sorted.sort(Comparator.comparingDouble(BatchCost::records));
    BatchCost first = sorted.get(0);
    BatchCost last = sorted.get(sorted.size() - 1);
    if (records <= first.records()) {
      return first.scaled(records / first.records());
    }
    if (records >= last.records()) {
      return last.scaled(records / last.records());
    }
    for (int i = 1; i < sorted.size(); i++) {
      BatchCost high = sorted.get(i);
      if (records <= high.records()) {
        BatchCost low = sorted.get(i - 1);
        double t =
            (Math.log(records) - Math.log(low.records()))
                / (Math.log(high.records()) - Math.log(low.records()));
        return new BatchCost(
            records,
            mix(low.cpuMillis(), high.cpuMillis(), t),
            mix(low.roundTrips(), high.roundTrips(), t),
            mix(low.writeUnits(), high.writeUnits(), t),
            mix(low.readUnits(), high.readUnits(), t),
            mix(low.sqsRequests(), high.sqsRequests(), t));
      }
    }
    throw new IllegalStateException("unreachable");
  }

  private BatchCost scaled(double factor) {
    // Round trips are a batch's, whatever its size; the rest grows with its records.
    return new BatchCost(
        records * factor,
        cpuMillis * factor,
        roundTrips,
        writeUnits * factor,
        readUnits * factor,
        sqsRequests * factor);
  }

  private static double mix(double low, double high, double t) {
    return low + (high - low) * t;
  }
}
