package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.Sink;
import dev.statekit.stream.internal.Plan;
import dev.statekit.stream.lambda.EgressOutput;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pipeline's outputs (main, late records, dead letters), each an {@link EgressOutput}, by
 * index: a batch run gives every record it writes an id, which only an egress output carries.
 */
final class Routes {
  private final List<EgressOutput<?>> outputs = new ArrayList<>();
  private final Map<Sink<?>, Integer> index = new IdentityHashMap<>();

  Routes(Plan plan) {
    for (Sink<?> sink : plan.sinks()) {
      if (!(sink instanceof EgressOutput<?> output)) {
        throw new IllegalArgumentException(
            "On Lambda a pipeline's sinks (its end, late records, dead letters) are"
                + " EgressOutput.to(egressSink, egress, type), which give every record an id that"
                + " a replayed batch repeats; got "
                + sink.name());
      }
      if (!index.containsKey(sink)) {
        index.put(sink, outputs.size());
        outputs.add(output);
      }
    }
  }

  int index(Sink<?> sink) {
    Integer route = index.get(sink);
    if (route == null) {
      throw new IllegalStateException("The sink " + sink.name() + " is not in the plan");
    }
    return route;
  }

  EgressOutput<?> get(int route) {
    return outputs.get(route);
  }

  int size() {
    return outputs.size();
  }
}
