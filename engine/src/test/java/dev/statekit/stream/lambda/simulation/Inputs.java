package dev.statekit.stream.lambda.simulation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Inputs whose bytes are their key, a few keys hot, over about half an hour; one in fifty marked
 * flaky ({@code key!}): it fails the first time it is processed, so the batch answers it as failed
 * and Lambda hands it over again (from it, on a shard; alone, from a queue).
 */
final class Inputs {
  private static final String FLAKY = "!";

  private Inputs() {}

  /**
   * The records as their keys, a flaky one failing once (per pipeline, that is per schedule) under
   * {@code FailurePolicy.fail()}.
   */
  static dev.statekit.stream.DataStream<String> flaky(
      dev.statekit.stream.DataStream<byte[]> records) {
    java.util.Set<String> failed = java.util.concurrent.ConcurrentHashMap.newKeySet();
    return records.<String>process(
        "flaky",
        (record, out) -> {
          String text = new String(record.value(), StandardCharsets.UTF_8);
          if (text.endsWith(FLAKY)) {
            if (failed.add(record.position().toString())) {
              throw new IllegalStateException("a passing failure of " + record.position());
            }
            text = text.substring(0, text.length() - FLAKY.length());
          }
          out.collect(text);
        },
        dev.statekit.stream.FailurePolicy.fail());
  }

  /** For each input in order, its key, {@code separator}, and how many of its key came so far. */
  static List<String> counts(List<Workload.Input> input, String separator) {
    java.util.Map<String, Long> counts = new java.util.TreeMap<>();
    List<String> expected = new ArrayList<>();
    for (Workload.Input in : input) {
      expected.add(in.key() + separator + counts.merge(in.key(), 1L, Long::sum));
    }
    return expected;
  }

  static List<Workload.Input> keys(Random random, long start, String prefix) {
    List<Workload.Input> input = new ArrayList<>();
    int keys = 1 + random.nextInt(12);
    int records = 30 + random.nextInt(250);
    long at = start;
    for (int i = 0; i < records; i++) {
      at += random.nextInt(12_000);
      // Skewed: the first key takes about half.
      String key = prefix + "k" + (random.nextBoolean() ? 0 : random.nextInt(keys));
      String data = random.nextInt(50) == 0 ? key + FLAKY : key;
      input.add(new Workload.Input(at, key, data.getBytes(StandardCharsets.UTF_8)));
    }
    return input;
  }
}
