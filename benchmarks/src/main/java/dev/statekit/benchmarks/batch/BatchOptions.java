package dev.statekit.benchmarks.batch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The suite's {@code -Dstatekit.batch.*} options, read and checked the same way in the suite's JVM
 * and in each engine's.
 *
 * @param records measured records per run
 * @param rounds measured runs per case (the median is reported)
 * @param sizes batch sizes
 * @param shards shard counts
 * @param jobs the jobs
 */
record BatchOptions(int records, int rounds, int[] sizes, int[] shards, List<Jobs> jobs) {
  /** The prefix of every option's property name. */
  static final String PREFIX = "statekit.batch.";

  static BatchOptions fromSystemProperties() {
    int records = Integer.getInteger(PREFIX + "records", 200_000);
    int rounds = Integer.getInteger(PREFIX + "rounds", 3);
    if (records < 10_000) {
      throw new IllegalArgumentException(PREFIX + "records is at least 10000, got " + records);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException(PREFIX + "rounds is at least 1, got " + rounds);
    }
    return new BatchOptions(
        records,
        rounds,
        ints(PREFIX + "sizes", "100,1000"),
        ints(PREFIX + "shards", "1,4,16"),
        jobs(System.getProperty(PREFIX + "jobs", "fraud,count")));
  }

  /** Records run before the measured ones, whose outputs every engine must agree on. */
  int warmup() {
    return records / 4;
  }

  private static int[] ints(String property, String defaults) {
    String value = System.getProperty(property, defaults);
    try {
      int[] parsed =
          Arrays.stream(value.split(",")).mapToInt(v -> Integer.parseInt(v.trim())).toArray();
      if (Arrays.stream(parsed).anyMatch(n -> n < 1)) {
        throw new NumberFormatException("below 1");
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          property
              + " is a comma-separated list of numbers of at least 1 (e.g. "
              + defaults
              + "), got '"
              + value
              + "'");
    }
  }

  private static List<Jobs> jobs(String value) {
    List<Jobs> jobs = new ArrayList<>();
    for (String name : value.split(",")) {
      jobs.add(Jobs.named(name.trim(), value));
    }
    return jobs;
  }
}
