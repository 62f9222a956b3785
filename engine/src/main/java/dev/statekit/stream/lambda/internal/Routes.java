package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Sink;
import dev.statekit.stream.internal.Plan;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.RefusedOutput;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pipeline's outputs (main, late records, dead letters), each an {@link EgressOutput}, by
 * index: a batch run gives every record it writes an id, which only an egress output carries. The
 * place for refused outputs, if the pipeline has one, comes last ({@link #refused()}): an index
 * kept in a key's outbox stays valid when it is added.
 */
final class Routes {
  private final List<EgressOutput<?>> outputs = new ArrayList<>();
  private final Map<Sink<?>, Integer> index = new IdentityHashMap<>();
  private final int refused;

  /**
   * @param refusedSink where outputs refused for what they hold are set aside, or null
   */
  Routes(Plan plan, EgressSink refusedSink) {
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
    if (refusedSink != null) {
      refused = outputs.size();
      outputs.add(EgressOutput.to(refusedSink, RefusedOutput.EGRESS, RefusedOutput.TYPE));
    } else {
      refused = -1;
    }
  }

  /** The index of the place for refused outputs, or -1 if the pipeline has none. */
  int refused() {
    return refused;
  }

  int index(Sink<?> sink) {
    Integer route = index.get(sink);
    if (route == null) {
      throw new IllegalStateException("The sink " + sink.name() + " is not in the plan");
    }
    return route;
  }

  EgressOutput<?> get(int route) {
    if (route < 0 || route >= outputs.size()) {
      // A key keeps undelivered outputs by index: one of a deployment with more outputs.
      throw new IllegalStateException(
          "A key keeps an undelivered output of output "
              + route
              + ", and this pipeline has "
              + outputs.size()
              + (refused < 0 ? " and no place for refused outputs" : "")
              + ": deploy it again with the outputs it had (refusedOutputsTo, if it had one, is"
              + " the last) until its batches delivered them");
    }
    return outputs.get(route);
  }

  int size() {
    return outputs.size();
  }
}
