package dev.statekit.runtime;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.HashMap;
import java.util.Map;

class FaultToleranceTest extends FaultToleranceContract {
  private final CollectingEgressSink sink = new CollectingEgressSink();

  @Override
  EgressSink egressSink() {
    return sink;
  }

  @Override
  Map<String, Integer> egressTexts() {
    Map<String, Integer> texts = new HashMap<>();
    for (EgressRecord record : sink.records()) {
      texts.merge(record.textOrBase64(), 1, Integer::sum);
    }
    return texts;
  }
}
