package dev.statekit.stream.lambda;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The fault scenario on the in-memory store, results in a map written by id like a table. */
class WindowedFaultsTest extends WindowedFaultsContract {
  private final BatchStore store = new InMemoryBatchStore();
  private final Map<String, String> table = new TreeMap<>();
  private final EgressSink sink =
      (List<EgressRecord> records) -> {
        synchronized (table) {
          records.forEach(r -> table.put(r.id(), r.text().orElseThrow()));
        }
      };

  @Override
  BatchStore store() {
    return store;
  }

  @Override
  EgressSink results() {
    return sink;
  }

  @Override
  Map<String, String> stored() {
    synchronized (table) {
      return new TreeMap<>(table);
    }
  }

  @Override
  int recordsPerShard() {
    return 3000;
  }
}
