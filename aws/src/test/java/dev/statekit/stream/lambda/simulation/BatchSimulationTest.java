package dev.statekit.stream.lambda.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.statekit.simulation.SeedRunner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the deterministic simulation over many seeds: {@code -Dsimulation.seeds=N} schedules from
 * {@code -Dsimulation.first=F} (2,000 from 1 by default), or the one of {@code
 * -Dsimulation.seed=S}. A failing seed prints its schedule and trace and the command that runs it
 * alone.
 */
class BatchSimulationTest {
  /**
   * Seeds that broke an invariant before the defect they found was fixed (README, "The
   * deterministic simulator"), kept as regressions: 125, a key written by an attempt that died
   * before its timer items never fired once replayed; 379, a shard whose batch Lambda was retrying
   * looked idle and event time passed its records; 171, a range whose shard's last batches were
   * given up was noticed again after every replay; 48, another shard's batch dropped a key's holes
   * of a range noticed but not recorded; 875, records given up before the first recorded attempt
   * read as applied by marks later batches moved; 359, a shard's last batch given up unrecorded
   * could not be replayed; 3955, an on-failure range replayed before the pipeline listed the range
   * holding it was applied twice; 29 and 36, records given up with no attempt recorded; 16886, a
   * batch the tick took for given up while Lambda still retried it noted a hole over what it then
   * applied; 7026, a shard all of whose batches were given up kept no watermark after their replay,
   * and its windows never fired; 123, a batch whose first record failed recorded a range given up
   * without moving the checkpoint, and batches given up after it read as part of that range; 3651,
   * 18612 and 82908, a retry from the failed record one copy of a batch answered was refused once
   * the other copy had checkpointed first (or once the retry was handed over again); 6585, 8811,
   * 9876, 11936 and 19578, a record after a batch given up on was counted in a window an attempt of
   * that batch had delivered, which then came out again with another value; 67458 and 4351, a batch
   * tried again whole past the checkpoint its first answer wrote, then given up, went unnoticed,
   * and its records counted as applied nowhere in a later range (applied twice, or never); 47307,
   * two batches of one shard at once (ParallelizationFactor 2) noticed overlapping ranges given up,
   * and the records they shared were replayed twice; 13666 (and 26396, 29077, 29569, 45289, 60931,
   * 64642, 99225), a range replayed while one before it was open was closed with its records beyond
   * the checkpoint, and its replay's attempt was taken for a batch given up and replayed again;
   * 21798, 30620 and 96424, a shard that joined (a reshard's child) after an attempt had fired and
   * delivered windows counted a record in one of them, which came out again with another value;
   * 65240, with ParallelizationFactor 2, a batch that applied and delivered its records and was
   * refused at its checkpoint was left out of the range noticed after it, whose replay applied its
   * records again; 86925, a replay counted a record in a window an attempt of an earlier batch of
   * its range had fired and delivered.
   */
  static final long[] FOUND = {
    125, 379, 171, 48, 875, 359, 3955, 29, 36, 16886, 7026, 123, 3651, 18612, 82908, 6585, 8811,
    9876, 11936, 19578, 67458, 4351, 47307, 13666, 26396, 29077, 29569, 45289, 60931, 64642, 99225,
    21798, 30620, 96424, 65240, 86925
  };

  /**
   * The runs take seeds side by side ({@link SeedRunner}): each must come out as it does alone, in
   * each of the three ways the schedules run.
   */
  @Test
  void seedsRunSideBySideComeOutAsAlone() {
    for (boolean shared : new boolean[] {false, true}) {
      for (double late : new double[] {0, 0.2}) {
        assertEquals(
            List.of(),
            SeedRunner.differencesSideBySide(
                1,
                12,
                seed -> Simulation.run(seed, Simulation.workloads(), shared, late),
                outcome -> outcome.violations() + "\n" + outcome.report()),
            "seeds whose outcome differed side by side, shared " + shared + ", late " + late);
      }
    }
  }

  @Test
  void schedulesKeepEveryInvariant() {
    SimulationRuns.check(
        Simulation.workloads(), "BatchSimulationTest#schedulesKeepEveryInvariant", "aws", 2000);
  }

  /**
   * The same schedules with writes landing late ({@link LateWrites}): a write request in flight
   * when its invocation died is applied later, its conditions evaluated then, at a chance of up to
   * 0.2 a request. A batch refused because a dead invocation's checkpoint landed while it ran is
   * expected (Lambda retries it from that checkpoint); nothing may be lost or applied twice. {@code
   * -Dsimulation.seeds=N} as above.
   */
  @Test
  void schedulesWithLateWritesKeepEveryInvariant() {
    SimulationRuns.check(
        Simulation.workloads(),
        "BatchSimulationTest#schedulesWithLateWritesKeepEveryInvariant",
        "aws",
        500,
        false,
        0.2);
  }

  /**
   * Invocations at the same time sharing one instance, as the local runner's threads share one
   * pipeline (its key items and decoded states cached between batches, a window fired from the
   * index borrowing a state another invocation may take): the same invariants. {@code
   * -Dsimulation.seeds=N} as above. Seed 39 (in the default 300) applied a FIFO message twice: an
   * attempt took the message for confirmed because the other attempt on the instance had written
   * its receipt after this one read the receipts.
   */
  @Test
  void instancesSharedByInvocationsAtOnceKeepEveryInvariant() {
    SimulationRuns.check(
        Simulation.workloads(),
        "BatchSimulationTest#instancesSharedByInvocationsAtOnceKeepEveryInvariant",
        "aws",
        300,
        true);
  }

  /**
   * Seeds of shared instances that broke an invariant before their defect was fixed: 3431, with
   * ParallelizationFactor 2 a batch of later records of a shard ran before the batch of earlier
   * ones was first tried and fired their windows; the earlier batch was given up, and its replay
   * counted its records in those windows, which came out again with other values.
   */
  static final long[] FOUND_SHARED = {3431};

  /**
   * Seeds that broke an invariant with the late-write fault on ({@link LateWrites}: a write request
   * in flight when its invocation died lands later, at most 8 s after), at a chance of up to 0.2 a
   * write request: 4521, batch 151 of a shard had its attempt's PutItem throttled twice and its
   * last attempt died with it in flight; Lambda gave up, batch 152 read the attempts before the
   * PutItem landed and checkpointed past 151, and the on-failure record's replay was then refused
   * as "Nothing to replay": record 151 was never applied (LateAttemptRecordTest); 9623, the same
   * through a reshard's child shard, batch 252's first two attempts dying before their attempt's
   * PutItem was sent. Fixed: an attempt is recorded in one transaction with its shard's order
   * ({@code BatchStore.putAttemptInOrder}), which a late request of an earlier batch fails.
   */
  static final long[] FOUND_LATE = {4521, 9623};

  @Test
  void seedsThatFoundDefectsWithLateWritesStayFixed() {
    List<String> broken = new ArrayList<>();
    for (long seed : FOUND_LATE) {
      Simulation.Outcome outcome = Simulation.run(seed, Simulation.workloads(), false, 0.2);
      if (!outcome.ok()) {
        broken.add("late writes " + outcome.violations() + "\n" + outcome.report());
      }
    }
    if (!broken.isEmpty()) {
      fail(String.join("\n\n", broken));
    }
  }

  @Test
  void seedsThatFoundDefectsStayFixed() {
    List<String> broken = new ArrayList<>();
    for (long seed : FOUND) {
      Simulation.Outcome outcome = Simulation.run(seed, Simulation.workloads());
      if (!outcome.ok()) {
        broken.add(outcome.violations() + "\n" + outcome.report());
      }
    }
    for (long seed : FOUND_SHARED) {
      Simulation.Outcome outcome = Simulation.run(seed, Simulation.workloads(), true);
      if (!outcome.ok()) {
        broken.add("shared " + outcome.violations() + "\n" + outcome.report());
      }
    }
    if (!broken.isEmpty()) {
      fail(String.join("\n\n", broken));
    }
  }
}
