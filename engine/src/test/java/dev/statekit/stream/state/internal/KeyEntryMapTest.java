package dev.statekit.stream.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyEntryMapTest {
  /** A key whose hash code the test picks, so that keys collide and runs form on purpose. */
  record Key(int id, int hash) {
    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.id == id;
    }
  }

  @Test
  void agreesWithAHashMapUnderRandomAddsRemovesAndEvictions() {
    for (int hashes : new int[] {1, 7, 64, 100_000}) {
      Random random = new Random(hashes);
      KeyEntryMap map = new KeyEntryMap();
      Map<Key, KeyEntry> reference = new HashMap<>();
      for (int step = 0; step < 200_000; step++) {
        // Equal keys are new objects each time: the map must compare by equals, not identity.
        Key key = new Key(random.nextInt(3_000), 0);
        key = new Key(key.id(), Integer.hashCode(key.id() % hashes) * 31);
        int op = random.nextInt(100);
        if (op < 50) {
          if (reference.get(key) == null) {
            KeyEntry entry = new KeyEntry(key, 1);
            map.add(entry);
            reference.put(key, entry);
          }
        } else if (op < 90) {
          assertEquals(reference.remove(key) != null, map.remove(key), "remove " + key);
        } else if (op < 91) {
          int parity = random.nextInt(2);
          map.removeIf(e -> ((Key) e.key).id() % 2 == parity);
          reference.values().removeIf(e -> ((Key) e.key).id() % 2 == parity);
        }
        assertSame(reference.get(key), map.get(new Key(key.id(), key.hash())), "get " + key);
        assertEquals(reference.size(), map.size());
      }
      for (Map.Entry<Key, KeyEntry> e : reference.entrySet()) {
        assertSame(e.getValue(), map.get(e.getKey()));
      }
      Map<KeyEntry, Boolean> seen = new IdentityHashMap<>();
      map.forEach(e -> assertNull(seen.put(e, true), "forEach visits each entry once"));
      assertEquals(reference.size(), seen.size());
    }
  }

  @Test
  void removingFromTheMiddleOfARunThatWrapsKeepsTheRestFindable() {
    KeyEntryMap map = new KeyEntryMap();
    // All 7 share one hash: one run of 7 slots, wrapping past the table's end for some hashes.
    for (int hash : new int[] {0, -1, 0x12345678, Integer.MIN_VALUE}) {
      KeyEntry[] entries = new KeyEntry[7];
      for (int i = 0; i < entries.length; i++) {
        entries[i] = new KeyEntry(new Key(hash * 10 + i, hash), 1);
        map.add(entries[i]);
      }
      assertTrue(map.remove(entries[3].key));
      assertFalse(map.remove(entries[3].key));
      for (int i = 0; i < entries.length; i++) {
        if (i != 3) {
          assertSame(entries[i], map.get(entries[i].key), "entry " + i + " of hash " + hash);
        }
      }
      map.removeIf(e -> true);
      assertTrue(map.isEmpty());
      assertNull(map.get(entries[0].key));
    }
  }

  @Test
  void growsPastAMillionKeysAndShrinksOnEviction() {
    KeyEntryMap map = new KeyEntryMap();
    for (int i = 0; i < 1_000_000; i++) {
      map.add(new KeyEntry("k" + i, 1));
    }
    assertEquals(1_000_000, map.size());
    assertEquals("k123456", map.get("k123456").key);
    map.removeIf(e -> !e.key.equals("k42"));
    assertEquals(1, map.size());
    assertEquals("k42", map.get("k42").key);
    assertNull(map.get("k43"));
  }
}
