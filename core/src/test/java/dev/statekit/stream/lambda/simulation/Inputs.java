package dev.statekit.stream.lambda.simulation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Inputs whose bytes are their key, a few keys hot, over about half an hour. */
final class Inputs {
  private Inputs() {}

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
      input.add(new Workload.Input(at, key, key.getBytes(StandardCharsets.UTF_8)));
    }
    return input;
  }
}
