package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Sink;
import dev.statekit.stream.internal.Plan;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.RefusedOutput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pipeline's outputs (main, late records, dead letters), each an {@link EgressOutput}, by index
 * within one run: a batch run gives every record it writes an id, which only an egress output
 * carries. What a key keeps until it is delivered names its output by {@link #name} instead, which
 * the next deployment resolves to wherever that output stands in its plan: a deployment may add
 * outputs ahead of it (a dead-letter policy upstream). The place for refused outputs, if the
 * pipeline has one, has an index and a name of its own ({@link #REFUSED}).
 */
final class Routes {
  /** The index of the place for refused outputs. */
  static final int REFUSED = Short.MAX_VALUE;

  /**
   * The place's name. Without a {@code /} it names no egress; {@link #LEGACY} and the separator
   * before an egress's count hold none either.
   */
  private static final String PLACE_NAME = "refused-outputs";

  /** Names {@code #<index>}: what an item written before names were kept holds. */
  private static final String LEGACY = "#";

  private static final char COUNT_SEPARATOR = '\u0000';

  private final List<EgressOutput<?>> outputs = new ArrayList<>();
  private final Map<Sink<?>, Integer> index = new IdentityHashMap<>();
  private final List<String> names = new ArrayList<>();
  private final Map<String, Integer> byName = new HashMap<>();
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
        // The first output of an egress is named by it; another of the same egress by its count.
        String name = output.egress().toString();
        for (int n = 2; byName.containsKey(name); n++) {
          name = output.egress().toString() + COUNT_SEPARATOR + n;
        }
        byName.put(name, outputs.size());
        names.add(name);
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

  /** The name under which a key keeps an output of {@code route}, the same in every deployment. */
  String name(int route) {
    return route == REFUSED ? PLACE_NAME : names.get(route);
  }

  /**
   * The index of the output a kept output names ({@link #name}).
   *
   * @throws IllegalStateException if this deployment has no such output
   */
  int route(String name) {
    Integer route = byName.get(name);
    if (route != null) {
      return route;
    }
    if (name.equals(PLACE_NAME)) {
      return REFUSED;
    }
    if (name.startsWith(LEGACY)) {
      return Integer.parseInt(name.substring(LEGACY.length()));
    }
    int separator = name.indexOf(COUNT_SEPARATOR);
    throw new IllegalStateException(
        "A key keeps an undelivered output of egress "
            + (separator < 0
                ? name
                : name.substring(0, separator)
                    + " (output "
                    + name.substring(separator + 1)
                    + " of that egress)")
            + ", and this pipeline has no such output (its outputs: "
            + String.join(", ", names.stream().map(Routes::shown).toList())
            + "): deploy it again with that output until its batches have delivered what keys keep");
  }

  private static String shown(String name) {
    return name.replace(COUNT_SEPARATOR, '#');
  }

  /** The name of an output kept at index {@code route} by an item written before names were. */
  static String legacy(int route) {
    return LEGACY + route;
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
