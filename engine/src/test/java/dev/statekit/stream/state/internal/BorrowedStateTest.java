package dev.statekit.stream.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.ListState;
import dev.statekit.stream.state.MapState;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.StateTable;
import dev.statekit.stream.state.ValueState;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A store that borrows a key's decoded state (a window fired from the index) reads it as it is and,
 * once it changes anything, changes its own copy: the lender's state stays as it was, its lists and
 * maps included.
 */
class BorrowedStateTest {
  private static final TimeWindow W1 = new TimeWindow(0, 10);
  private static final TimeWindow W2 = new TimeWindow(10, 20);
  private static final byte[] BYTES = {1, 2, 3};

  /** The lender's state: count 5 in W1, list [x] and map {k=1} in W2, total 7 without window. */
  private final DecodedState lent = lenderState();

  @Test
  void aBorrowerReadsTheLentState() {
    Handles b = borrower();
    assertEquals(List.of(W1, W2), sorted(b.store.namespaces()));
    b.store.setNamespace(W1);
    assertEquals(5L, b.count.value());
    b.store.setNamespace(W2);
    assertEquals(List.of("x"), b.list.get());
    assertEquals(1L, b.map.get("k"));
    b.store.setNamespace(KeyedStateStore.NO_NAMESPACE);
    assertEquals(7L, b.total.value());
    assertTrue(lent.borrowed() == false);
  }

  @Test
  void everyChangeOfTheBorrowerLeavesTheLenderAsItWas() {
    for (int change = 0; change < 7; change++) {
      DecodedState lender = lenderState();
      Handles b = borrower(lender);
      switch (change) {
        case 0 -> {
          b.store.setNamespace(W1);
          b.count.update(6L);
        }
        case 1 -> {
          b.store.setNamespace(W1);
          b.count.clear();
        }
        case 2 -> {
          b.store.setNamespace(W2);
          b.list.add("y");
        }
        case 3 -> {
          b.store.setNamespace(W2);
          b.map.put("k", 2L);
        }
        case 4 -> {
          b.store.setNamespace(W2);
          b.map.remove("k");
        }
        case 5 -> {
          b.store.setNamespace(new TimeWindow(20, 30));
          b.count.update(1L);
        }
        default -> {
          b.store.setNamespace(KeyedStateStore.NO_NAMESPACE);
          b.total.update(8L);
        }
      }
      assertLenderUnchanged(lender, "change " + change);
    }
  }

  @Test
  void theBorrowerSeesItsOwnChanges() {
    Handles b = borrower();
    b.store.setNamespace(W2);
    b.list.add("y");
    b.map.put("j", 3L);
    assertEquals(List.of("x", "y"), b.list.get());
    assertEquals(Map.of("k", 1L, "j", 3L), b.map.entries());
    b.store.setNamespace(W1);
    b.count.clear();
    assertNull(b.count.value());
    assertEquals(List.of(W2), sorted(b.store.namespaces()));
  }

  private void assertLenderUnchanged(DecodedState lender, String what) {
    KeyEntry e = lender.entry;
    assertEquals(7L, e.slots[3], what);
    assertEquals(2, e.spaces.size(), what);
    assertEquals(5L, e.spaces.get(W1)[0], what);
    assertEquals(List.of("x"), e.spaces.get(W2)[1], what);
    assertEquals(Map.of("k", 1L), e.spaces.get(W2)[2], what);
    assertFalse(lender.borrowed(), what);
  }

  private static List<TimeWindow> sorted(Collection<Object> namespaces) {
    return namespaces.stream()
        .map(TimeWindow.class::cast)
        .sorted(java.util.Comparator.comparingLong(TimeWindow::start))
        .toList();
  }

  private record Handles(
      KeyedStateStore store,
      ValueState<Long> count,
      ListState<String> list,
      MapState<String, Long> map,
      ValueState<Long> total) {}

  private Handles borrower() {
    return borrower(lent);
  }

  private static Handles borrower(DecodedState lender) {
    Handles h = open(new LendingTable(lender, BYTES));
    h.store.setCurrentKey("a");
    return h;
  }

  private static DecodedState lenderState() {
    KeyEntry entry = new KeyEntry("a", 4);
    entry.slots[3] = 7L;
    entry.spaces = new HashMap<>();
    entry.spaces.put(W1, new Object[] {5L, null, null, null});
    entry.spaces.put(
        W2,
        new Object[] {
          null, new java.util.ArrayList<>(List.of("x")), new HashMap<>(Map.of("k", 1L)), null
        });
    return new DecodedState("p#op", entry);
  }

  @SuppressWarnings("unchecked")
  private static Handles open(StateTable table) {
    Serde<Object> keys = (Serde<Object>) (Serde<?>) Serdes.string();
    Serde<Object> windows = (Serde<Object>) (Serde<?>) Serdes.json(TimeWindow.class);
    KeyedStateStore store =
        new CachingStateBackend(table, 100)
            .open("p", "op", keys, windows, new CheckpointLineage(1, List.of()));
    ValueState<Long> count = store.register(StateSpec.value("count", Serdes.longs()));
    ListState<String> list = store.register(StateSpec.list("list", Serdes.string()));
    MapState<String, Long> map =
        store.register(StateSpec.map("map", Serdes.string(), Serdes.longs()));
    ValueState<Long> total = store.register(StateSpec.value("total", Serdes.longs()));
    return new Handles(store, count, list, map, total);
  }

  /** A table that has key "a" and lends its decoded state as the batch engine's does. */
}
