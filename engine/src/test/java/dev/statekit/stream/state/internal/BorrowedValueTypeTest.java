package dev.statekit.stream.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A borrower that copies the lent state before its first change copies the lists and maps of list
 * and map states, never a value state's value: that is the user's object, of the user's type (a
 * JSON map decodes as a {@code LinkedHashMap}, whose order is the user's; a value type may extend
 * {@code ArrayList}), shared as every value object is.
 */
class BorrowedValueTypeTest {
  /** A value type of the user's that happens to be a list. */
  static final class Path extends ArrayList<String> {
    Path(List<String> points) {
      super(points);
    }
  }

  @Test
  void aValueStatesValueKeepsItsTypeAndOrderWhenTheBorrowerCopiesTheState() {
    LinkedHashMap<String, Long> ordered = new LinkedHashMap<>();
    for (int i = 20; i > 0; i--) {
      ordered.put("k" + i, (long) i);
    }
    Path path = new Path(List.of("x", "y"));
    KeyEntry lent = new KeyEntry("a", 3);
    lent.slots[0] = ordered;
    lent.slots[1] = path;
    DecodedState lender = new DecodedState("p#op", lent);

    Handles b = open(lender);
    b.store.setCurrentKey("a");
    b.total.update(1L); // the first change: the borrower copies the state for itself

    Object map = b.map.value();
    assertEquals(LinkedHashMap.class, map.getClass(), "a value's type changed under the borrower");
    assertEquals(List.copyOf(ordered.keySet()), List.copyOf(((Map<?, ?>) map).keySet()));
    Object value = b.path.value();
    assertEquals(Path.class, value.getClass(), "a value's type changed under the borrower");
    assertSame(path, value, "a value object is shared, as values always are");
    assertSame(ordered, lent.slots[0]);
  }

  private record Handles(
      KeyedStateStore store,
      ValueState<Object> map,
      ValueState<Object> path,
      ValueState<Long> total) {}

  @SuppressWarnings("unchecked")
  private static Handles open(DecodedState lender) {
    Serde<Object> keys = (Serde<Object>) (Serde<?>) Serdes.string();
    Serde<Object> any = (Serde<Object>) (Serde<?>) Serdes.json(Object.class);
    KeyedStateStore store =
        new CachingStateBackend(new LendingTable(lender, new byte[] {1}), 100)
            .open("p", "op", keys, any, new CheckpointLineage(1, List.of()));
    ValueState<Object> map = store.register(StateSpec.value("map", any));
    ValueState<Object> path = store.register(StateSpec.value("path", any));
    ValueState<Long> total = store.register(StateSpec.value("total", Serdes.longs()));
    return new Handles(store, map, path, total);
  }

  /** A table that has key "a" and lends its decoded state as the batch engine's does. */
}
