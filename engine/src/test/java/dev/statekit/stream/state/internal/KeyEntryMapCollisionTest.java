package dev.statekit.stream.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Keys are user data: whoever picks them picks their hash codes. The key map must cost no more than
 * a {@link HashMap} would (which keeps a bin of colliding comparable keys as a tree), whether keys
 * share one hash code or have distinct ones that land on the same slots of the table.
 */
class KeyEntryMapCollisionTest {
  /** The inverse of the map's multiplier modulo 2^32: {@code h * 0x9E3779B9} is then anything. */
  private static final int INVERSE = 0x144cbc89;

  /**
   * A comparable key with one hash code for all, counting how often it is compared for equality.
   */
  static final class Same implements Comparable<Same> {
    static long equalsCalls;
    final int id;

    Same(int id) {
      this.id = id;
    }

    @Override
    public int hashCode() {
      return 42;
    }

    @Override
    public boolean equals(Object o) {
      equalsCalls++;
      return o instanceof Same s && s.id == id;
    }

    @Override
    public int compareTo(Same o) {
      return Integer.compare(id, o.id);
    }
  }

  @Test
  void tenThousandKeysOfOneHashCodeCostWhatAHashMapCosts() {
    int keys = 10_000;
    Same.equalsCalls = 0;
    KeyEntryMap map = new KeyEntryMap();
    Map<Same, KeyEntry> reference = new HashMap<>();
    for (int i = 0; i < keys; i++) {
      Same key = new Same(i);
      assertNull(map.get(key));
      KeyEntry entry = new KeyEntry(key, 1);
      map.add(entry);
      reference.put(key, entry);
    }
    for (int i = 0; i < keys; i += 2) {
      assertTrue(map.remove(new Same(i)));
      reference.remove(new Same(i));
    }
    for (int i = 0; i < keys; i++) {
      assertSame(reference.get(new Same(i)), map.get(new Same(i)), "key " + i);
    }
    assertEquals(reference.size(), map.size());
    // Some dozens of comparisons per operation at most (a HashMap's tree bin needs about one);
    // probing one run of colliding keys makes it n^2 / 2 = 50,000,000.
    long operations = keys * 5L / 2;
    assertTrue(
        Same.equalsCalls < 100 * operations,
        Same.equalsCalls + " equality checks for " + operations + " operations");
  }

  @Test
  void fiftyThousandStringKeysOfOneHashCodeDoNotHang() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      keys.add(colliding(i));
    }
    assertEquals(keys.get(0).hashCode(), keys.get(49_999).hashCode());
    assertAgreesWithAHashMapWithin(keys, Duration.ofSeconds(15));
  }

  @Test
  void distinctHashCodesThatShareTheMapsSlotsDoNotHang() {
    // Distinct Integers that all map to slot 0 of every table size: a HashMap spreads them.
    List<Integer> keys = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      keys.add(i * INVERSE);
    }
    assertAgreesWithAHashMapWithin(keys, Duration.ofSeconds(15));
  }

  @Test
  void removingFromTheFrontOfARunAsLongAsHalfTheTableDoesNotRescanTheRun() {
    // Keys whose slots form one run of every other slot taken, filled without a collision: each
    // key sits in its own home slot, and at the table's final size the run covers 0 .. n - 1.
    int n = 1 << 17;
    List<Integer> keys = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      keys.add((Integer.reverse(t) >>> 15 << 14) * INVERSE);
    }
    assertTimeoutPreemptively(
        Duration.ofSeconds(15),
        () -> {
          KeyEntryMap map = new KeyEntryMap();
          for (Integer key : keys) {
            map.add(new KeyEntry(key, 1));
          }
          // In slot order, so that each removal leaves the rest of the run after its hole.
          for (int home = 0; home < n; home++) {
            Integer key = keys.get(Integer.reverse(home) >>> 15);
            assertTrue(map.remove(key), "key of slot " + home);
            if (home % 4096 == 0) {
              assertNull(map.get(key));
              assertNotNull(map.get(keys.get(Integer.reverse(n - 1) >>> 15)), "the run's last key");
            }
          }
          assertTrue(map.isEmpty());
        });
  }

  @Test
  void collidingAndOrdinaryKeysTogetherAgreeWithAHashMapUnderAddsRemovesAndEvictions() {
    Random random = new Random(16);
    KeyEntryMap map = new KeyEntryMap();
    Map<Object, KeyEntry> reference = new HashMap<>();
    for (int step = 0; step < 300_000; step++) {
      int id = random.nextInt(20_000);
      // A third collide on one hash code, a third share slots, a third are ordinary.
      Object key =
          switch (id % 3) {
            case 0 -> colliding(id);
            case 1 -> id * INVERSE;
            default -> "k" + id;
          };
      int op = random.nextInt(100);
      if (op < 55) {
        if (reference.get(key) == null) {
          KeyEntry entry = new KeyEntry(key, 1);
          map.add(entry);
          reference.put(key, entry);
        }
      } else if (op < 95) {
        assertEquals(reference.remove(key) != null, map.remove(key), "remove " + key);
      } else if (op < 96) {
        int parity = random.nextInt(2);
        map.removeIf(e -> e.key.hashCode() % 2 == parity);
        reference.values().removeIf(e -> e.key.hashCode() % 2 == parity);
      }
      assertSame(reference.get(key), map.get(key), "get " + key);
      assertEquals(reference.size(), map.size());
    }
    for (Map.Entry<Object, KeyEntry> e : reference.entrySet()) {
      assertSame(e.getValue(), map.get(e.getKey()));
    }
    List<KeyEntry> visited = new ArrayList<>();
    map.forEach(visited::add);
    assertEquals(reference.size(), visited.size());
    assertEquals(reference.size(), new java.util.HashSet<>(visited).size());
  }

  @Test
  void denseRunsLongerThanTheProbeLimitAgreeWithAHashMapUnderAddsAndRemoves() {
    // 200 keys whose home slots (in a table of 256 to 512) fall within the first 60: runs longer
    // than the probe limit, entries up to it from home, the rest in the overflow, and removals
    // whose back-shift must stop at the limit without losing an entry beyond it.
    Random random = new Random(32);
    int[] hashes = new int[200];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = ((random.nextInt(60) << 24) | random.nextInt(1 << 24)) * INVERSE;
    }
    KeyEntryMap map = new KeyEntryMap();
    Map<Object, KeyEntry> reference = new HashMap<>();
    for (int step = 0; step < 400_000; step++) {
      int id = random.nextInt(hashes.length);
      KeyEntryMapTest.Key key = new KeyEntryMapTest.Key(id, hashes[id]);
      if (random.nextInt(100) < 55) {
        if (reference.get(key) == null) {
          KeyEntry entry = new KeyEntry(key, 1);
          map.add(entry);
          reference.put(key, entry);
        }
      } else {
        assertEquals(reference.remove(key) != null, map.remove(key), "remove " + id);
      }
      for (int probe = 0; probe < 3; probe++) {
        int other = random.nextInt(hashes.length);
        KeyEntryMapTest.Key k = new KeyEntryMapTest.Key(other, hashes[other]);
        assertSame(reference.get(k), map.get(k), "get " + other + " at step " + step);
      }
      assertEquals(reference.size(), map.size());
    }
  }

  private static void assertAgreesWithAHashMapWithin(List<?> keys, Duration limit) {
    assertTimeoutPreemptively(
        limit,
        () -> {
          KeyEntryMap map = new KeyEntryMap();
          Map<Object, KeyEntry> reference = new HashMap<>();
          for (Object key : keys) {
            if (map.get(key) == null) {
              KeyEntry entry = new KeyEntry(key, 1);
              map.add(entry);
              reference.put(key, entry);
            }
          }
          for (int i = 0; i < keys.size(); i += 3) {
            assertEquals(reference.remove(keys.get(i)) != null, map.remove(keys.get(i)));
          }
          for (Object key : keys) {
            assertSame(reference.get(key), map.get(key));
          }
          assertEquals(reference.size(), map.size());
          map.removeIf(e -> e.key.hashCode() % 2 == 0);
          reference.values().removeIf(e -> e.key.hashCode() % 2 == 0);
          for (Object key : keys) {
            assertSame(reference.get(key), map.get(key));
          }
        });
  }

  /** Strings of 17 blocks of "Aa" or "BB", which hash alike: 2^17 keys of one hash code. */
  private static String colliding(int i) {
    StringBuilder s = new StringBuilder();
    for (int b = 0; b < 17; b++) {
      s.append(((i >> b) & 1) == 0 ? "Aa" : "BB");
    }
    return s.toString();
  }
}
