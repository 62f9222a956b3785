package dev.statekit.stream.lambda;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Copies and retries of a batch on the in-memory store. */
class RetriedBatchesTest extends RetriedBatchesContract {
  private final BatchStore store = new InMemoryBatchStore();
  private final Map<String, String> table = new TreeMap<>();

  @Override
  BatchStore store() {
    return store;
  }

  @Override
  EgressSink results() {
    return (List<EgressRecord> records) ->
        records.forEach(r -> table.put(r.id(), r.text().orElseThrow()));
  }

  @Override
  Map<String, String> stored() {
    return table;
  }
}
