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
 * place for refused outputs, if the pipeline has one, has an index of its own ({@link #REFUSED}),
 * outside the plan's: a key keeps undelivered outputs by index, and a deployment that adds an
 * output to the plan must not send a kept stand-in to it.
 */
final class Routes {
  /** The index of the place for refused outputs. */
  static final int REFUSED = Short.MAX_VALUE;

  private final List<EgressOutput<?>> outputs = new ArrayList<>();
  private final Map<Sink<?>, Integer> index = new IdentityHashMap<>();
  private final EgressOutput<?> place;

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
    place =
        refusedSink == null
            ? null
            : EgressOutput.to(refusedSink, RefusedOutput.EGRESS, RefusedOutput.TYPE);
  }

  /** The index of the place for refused outputs ({@link #REFUSED}), or -1 if there is none. */
  int refused() {
    return place == null ? -1 : REFUSED;
  }

  int index(Sink<?> sink) {
    Integer route = index.get(sink);
    if (route == null) {
      throw new IllegalStateException("The sink " + sink.name() + " is not in the plan");
    }
    return route;
  }

  EgressOutput<?> get(int route) {
    if (route == REFUSED && place != null) {
      return place;
    }
    if (route < 0 || route >= outputs.size()) {
      // A key keeps undelivered outputs by index: one of a deployment with other outputs.
      throw new IllegalStateException(
          "A key keeps an undelivered output of "
              + (route == REFUSED ? "the place for refused outputs" : "output " + route)
              + ", and this pipeline has "
              + outputs.size()
              + " output(s)"
              + (place == null ? " and no refusedOutputsTo" : "")
              + ": deploy it again with the outputs it had until its batches delivered them");
    }
    return outputs.get(route);
  }

  /** The number of the plan's outputs (indices 0 to size() - 1); the place is not one. */
  int size() {
    return outputs.size();
  }
}
