package dev.statekit.stream.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyTableTest {
  /** Keys whose hash codes collide in groups, so that probe runs are long and removals shift. */
  private record Colliding(int id) {
    @Override
    public int hashCode() {
      return id / 7;
    }
  }

  @Test
  void behavesAsAMapUnderRandomAddsRemovesAndEvictions() {
    Random random = new Random(5);
    KeyTable table = new KeyTable();
    Map<Object, KeyEntry> reference = new HashMap<>();
    for (int step = 0; step < 200_000; step++) {
      Object key =
          random.nextBoolean() ? new Colliding(random.nextInt(2000)) : "k" + random.nextInt(2000);
      int op = random.nextInt(10);
      if (op < 5 && !reference.containsKey(key)) {
        KeyEntry entry = new KeyEntry(key, 1);
        table.add(entry);
        reference.put(key, entry);
      } else if (op < 9) {
        table.remove(key);
        reference.remove(key);
      } else if (step % 1000 == 0) {
        table.removeIf(e -> e.key.hashCode() % 3 == 0);
        reference.values().removeIf(e -> e.key.hashCode() % 3 == 0);
      }
      assertSame(reference.get(key), table.get(key), "step " + step);
    }
    assertEquals(reference.size(), table.size());
    reference.forEach((key, entry) -> assertSame(entry, table.get(key)));
  }
}
