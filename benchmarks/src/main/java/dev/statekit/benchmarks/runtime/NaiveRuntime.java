package dev.statekit.benchmarks.runtime;

import dev.statekit.function.Address;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.Commit;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.runtime.store.StoredValue;
import dev.statekit.types.Types;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The design the runtime is measured against: each message on its own, one after another — a
 * strongly consistent read of its address, then a conditional write of the new state. Same items,
 * same function logic ({@link BenchCounter}), no batching.
 */
final class NaiveRuntime {
  private final FunctionStore store;

  NaiveRuntime(FunctionStore store) {
    this.store = store;
  }

  void process(List<Address> targets) {
    for (Address target : targets) {
      AddressState state = store.reload(target);
      StoredValue count = state.values().get(BenchCounter.COUNT.name());
      long next = (count == null ? 0 : Types.longType().deserialize(count.bytes())) + 1;
      Map<String, StoredValue> values = new LinkedHashMap<>();
      values.put(
          BenchCounter.COUNT.name(),
          new StoredValue("io.statefun.types/long", Types.longType().serialize(next), 0));
      values.put(
          BenchCounter.NOTE.name(),
          new StoredValue(
              "io.statefun.types/string", Types.stringType().serialize(BenchCounter.NOTE_TEXT), 0));
      store.commit(
          new Commit(
              new AddressState(
                  target, state.version() + 1, values, Map.of(), new byte[0], 0, null, 0),
              state.version(),
              List.of()));
    }
  }
}
