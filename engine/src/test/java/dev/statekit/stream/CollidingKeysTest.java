package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keys come from the data, so whoever writes the data can make their hash codes collide: a keyed
 * pipeline over forty thousand string keys of one hash code must still run in seconds, as it does
 * over a HashMap (which keeps colliding comparable keys in a tree), and count every key right.
 */
class CollidingKeysTest {
  private static final int KEYS = 40_000;

  /** One input record: its key (all keys hash alike) and its index. */
  record Hit(String key, long index) {}

  @Test
  void aReduceOverFortyThousandKeysOfOneHashCodeFinishesAndCountsEachKey() {
    CollectingSink<Long> sink = Sinks.collecting();
    PipelineResult result =
        assertTimeoutPreemptively(
            Duration.ofSeconds(30),
            () ->
                Pipeline.from(
                        Sources.generate(
                            2L * KEYS, i -> new Hit(colliding((int) (i % KEYS)), i), i -> i, 512))
                    .map(hit -> new Hit(hit.key(), 1))
                    .keyBy(Hit::key)
                    .reduce((a, b) -> new Hit(a.key(), a.index() + b.index()))
                    .map(Hit::index)
                    .to(sink)
                    .run(
                        RunOptions.named("colliding-keys")
                            .checkpointInterval(Duration.ofMillis(50))
                            .build()));
    assertEquals(2L * KEYS, result.recordsRead(), result.toString());
    Map<Long, Integer> counts = new HashMap<>();
    sink.values().forEach(count -> counts.merge(count, 1, Integer::sum));
    // Each key's running count goes 1 then 2.
    assertEquals(Map.of(1L, KEYS, 2L, KEYS), counts);
  }

  /** Strings of 16 blocks of "Aa" or "BB", which hash alike: 2^16 keys of one hash code. */
  static String colliding(int i) {
    StringBuilder s = new StringBuilder();
    for (int b = 0; b < 16; b++) {
      s.append(((i >> b) & 1) == 0 ? "Aa" : "BB");
    }
    return s.toString();
  }
}
