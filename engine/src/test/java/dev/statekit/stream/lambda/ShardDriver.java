package dev.statekit.stream.lambda;

import dev.statekit.StateKitException;
import dev.statekit.stream.state.StateStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Plays Lambda's event source mapping for one shard against a pipeline, with faults: batches of
 * random size; a crashed invocation is retried whole, the same records (often on a fresh instance,
 * as after a cold start); a partial failure resumes at the failed record; some batches carry a
 * record twice; some succeeded batches are delivered again. An invocation that fails because its
 * keys kept changing under it (other shards writing the same keys) is retried whole, as Lambda
 * retries any failed invocation; one batch failing so {@link #MAX_CONFLICTED} times in a row fails
 * the run (a livelock, not contention).
 */
final class ShardDriver {
  /** A record of the shard: its sequence number and bytes. */
  record ShardRecord(String sequence, byte[] data) {}

  /** Where the driver makes an invocation crash. */
  interface Crashes {
    /** Arms (or not) a crash for the next invocation on this thread. */
    void arm(Random random);
  }

  static final int MAX_CONFLICTED = 50;

  private final String split;
  private final List<ShardRecord> records;
  private final Supplier<BatchPipeline> instances;
  private final Crashes crashes;
  private final Random random;
  private final int maxBatch;
  int invocations;
  int crashed;
  int partial;
  int conflicted;

  ShardDriver(
      String split,
      List<ShardRecord> records,
      Supplier<BatchPipeline> instances,
      Crashes crashes,
      long seed,
      int maxBatch) {
    this.split = split;
    this.records = records;
    this.instances = instances;
    this.crashes = crashes;
    this.random = new Random(seed);
    this.maxBatch = maxBatch;
  }

  void run() {
    BatchPipeline pipeline = instances.get();
    int cursor = 0;
    List<ShardRecord> retried = null;
    int conflictedInARow = 0;
    while (cursor < records.size()) {
      int size = 1 + random.nextInt(maxBatch);
      List<ShardRecord> slice =
          retried != null
              ? retried
              : records.subList(cursor, Math.min(records.size(), cursor + size));
      retried = null;
      SourceBatch batch = batch(slice, random.nextInt(10) == 0);
      BatchResult result;
      try {
        invocations++;
        crashes.arm(random);
        result = pipeline.process(batch);
      } catch (Crash crash) {
        crashed++;
        retried = slice;
        if (random.nextBoolean()) {
          pipeline = instances.get();
        }
        continue;
      } catch (StateStoreException e) {
        if (!isConflict(e) || ++conflictedInARow > MAX_CONFLICTED) {
          throw e;
        }
        conflicted++;
        retried = slice;
        continue;
      }
      conflictedInARow = 0;
      if (!result.succeeded()) {
        partial++;
        int failed = indexOf(slice, result.failedOffsets().get(0));
        cursor += failed;
        retried = slice.subList(failed, slice.size()); // Lambda retries the rest of the batch
        continue;
      }
      cursor += slice.size();
      if (random.nextInt(10) == 0) {
        invocations++;
        try {
          pipeline.process(batch); // delivered again after it succeeded
        } catch (StateStoreException e) {
          if (!isConflict(e)) {
            throw e;
          }
          conflicted++; // its records were applied by the first delivery: nothing to retry
        }
      }
    }
  }

  private SourceBatch batch(List<ShardRecord> slice, boolean withRepeat) {
    List<ShardRecord> sent = new ArrayList<>(slice);
    if (withRepeat && !slice.isEmpty()) {
      int at = random.nextInt(slice.size());
      sent.add(at + 1, slice.get(at));
    }
    SourceBatch.Builder batch = SourceBatch.ordered(split);
    for (ShardRecord record : sent) {
      batch.add(record.sequence(), 0, record.data());
    }
    return batch.build();
  }

  private static boolean isConflict(StateStoreException e) {
    return e.reason() == StateKitException.Reason.CONFLICT;
  }

  private static int indexOf(List<ShardRecord> slice, String sequence) {
    for (int i = 0; i < slice.size(); i++) {
      if (slice.get(i).sequence().equals(sequence)) {
        return i;
      }
    }
    throw new AssertionError("The failed record " + sequence + " is not in the batch");
  }

  /** What an armed fault throws: the invocation dies there. */
  static final class Crash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Crash(String where) {
      super("crash at " + where, null, false, false);
    }
  }
}
