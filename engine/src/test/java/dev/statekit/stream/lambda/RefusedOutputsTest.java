package dev.statekit.stream.lambda;

import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressSink;
import dev.statekit.egress.FunctionAddressSink;
import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.List;

/** The refused-output cases on the in-memory store and queue. */
class RefusedOutputsTest extends RefusedOutputsContract {
  private final BatchStore store = new InMemoryBatchStore();
  private final InMemoryMessageBus queue = new InMemoryMessageBus(clock, Duration.ofSeconds(30));
  private final CollectingEgressSink refused = new CollectingEgressSink();

  @Override
  BatchStore store() {
    return store;
  }

  @Override
  EgressSink output() {
    return new FunctionAddressSink(Address.of(TypeName.of("test", "out"), "all"), queue);
  }

  @Override
  List<String> delivered() {
    return queue.peekAll().stream()
        .map(message -> EnvelopeCodec.tree(message.body()).get("value").asText())
        .toList();
  }

  @Override
  EgressSink refusedSink() {
    return refused;
  }

  @Override
  List<RefusedOutput> setAside() {
    return refused.records().stream().map(r -> RefusedOutput.TYPE.deserialize(r.value())).toList();
  }
}
