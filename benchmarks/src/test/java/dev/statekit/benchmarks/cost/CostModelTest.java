package dev.statekit.benchmarks.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The cost suite's arithmetic on figures given here, against sums done by hand. */
class CostModelTest {
  private final CostModel model = new CostModel(5, 5000, 100);

  @Test
  void theMinimumManagedFlinkApplicationIsTwoKpusAlwaysOnAndOneKpusStorage() {
    double kinesis = model.kinesis(1);
    // 2 KPU x 730 h x $0.11 + 50 GB x $0.10
    assertEquals(160.60 + 5.00, model.managedFlink(1) - kinesis, 1e-9);
    // 12,000/s needs 3 KPUs at 5,000 each, and the orchestration KPU
    assertEquals(
        4 * 730 * 0.11 + 3 * 50 * 0.10, model.managedFlink(12_000) - model.kinesis(12_000), 1e-9);
  }

  @Test
  void aStreamIsItsShardHoursAndAPutUnitARecord() {
    // One shard up to 1,000 records a second; 2,628,000 seconds a month.
    assertEquals(730 * 0.015 + 2_628_000 * 0.014e-6, model.kinesis(1), 1e-12);
    assertEquals(3, model.shards(2_500));
    assertEquals(1, model.shards(0.5));
  }

  @Test
  void lambdaBillsRequestsDurationRoundedUpCapacityAndQueueRequests() {
    // 1.2 ms CPU + 2 round trips x 5 ms = 11.2 ms, billed 12 ms at 1769 MB
    BatchCost batch = new BatchCost(10, 1.2, 2, 11, 1, 3);
    double perInvocation =
        0.20e-6
            + 0.012 * (1769 / 1024.0) * 0.0000166667
            + 11 * 0.625e-6
            + 1 * 0.125e-6
            + 3 * 0.50e-6;
    assertEquals(perInvocation * 2_628_000, model.lambda(batch, 1), 1e-9);
  }

  @Test
  void batchesBetweenMeasuredSizesAreInterpolatedOnTheLogOfTheSize() {
    List<BatchCost> measured =
        List.of(new BatchCost(1, 1, 2, 2, 1, 0), new BatchCost(100, 21, 4, 52, 1, 0));
    BatchCost ten = BatchCost.at(measured, 10);
    assertEquals(11, ten.cpuMillis(), 1e-9);
    assertEquals(3, ten.roundTrips(), 1e-9);
    assertEquals(27, ten.writeUnits(), 1e-9);
    // Past the largest size, its figures per record; round trips stay a batch's.
    BatchCost twoHundred = BatchCost.at(measured, 200);
    assertEquals(104, twoHundred.writeUnits(), 1e-9);
    assertEquals(4, twoHundred.roundTrips(), 1e-9);
  }

  @Test
  void slowStreamsMakeSmallBatchesSoARecordCostsMore() {
    List<BatchCost> measured =
        List.of(new BatchCost(1, 1, 2, 2, 1, 0), new BatchCost(500, 50, 4, 60, 1, 0));
    double slow = CostModel.perMillion(model.pipeline(measured, 1, 500), 1);
    double fast = CostModel.perMillion(model.pipeline(measured, 500, 500), 500);
    assertTrue(slow > 10 * fast, slow + " vs " + fast);
  }

  @Test
  void theBreakEvenIsWhereTheCostsMeet() {
    // $1 a month per record a second against a flat $165.6: they meet at 165.6 a second.
    double rate = CostModel.breakEven(r -> r, r -> 165.6, 100_000);
    assertEquals(165.6, rate, 1e-6);
    assertTrue(Double.isNaN(CostModel.breakEven(r -> 1, r -> 165.6, 100_000)));
  }
}
