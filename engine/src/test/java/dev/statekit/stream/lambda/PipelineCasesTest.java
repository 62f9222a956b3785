package dev.statekit.stream.lambda;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The five cases on the in-memory store, results in a map written by id like a table. */
class PipelineCasesTest extends PipelineCasesContract {
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
    return new TreeMap<>(table);
  }

  @Override
  int hotMinutes() {
    return 24 * 60;
  }

  @Override
  int hotBatch() {
    return 10;
  }
}
