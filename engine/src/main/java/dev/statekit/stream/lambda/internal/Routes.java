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
 * carries. What a key keeps until it is delivered names its output by {@link #name}, its egress
 * (outputs of one egress share its sink and value type), which the next deployment resolves to
 * wherever that output stands in its plan: a deployment may add outputs ahead of it (a dead-letter
 * policy upstream). The place for refused outputs, if the pipeline has one, has an index and a name
 * of its own ({@link #REFUSED}).
 */
final class Routes {
  /** The index of the place for refused outputs. */
  static final int REFUSED = Short.MAX_VALUE;

  /** The place's name: without a {@code /}, it is no egress's. */
  private static final String PLACE_NAME = "refused-outputs";

  /** Names {@code #<index>}, without a {@code /}: what an item written before names holds. */
  private static final String LEGACY = "#";

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
        String name = output.egress().toString();
        Integer first = byName.get(name);
        if (first != null && !sameDelivery(outputs.get(first), output)) {
          throw new IllegalArgumentException(
              "Two outputs of this pipeline are of egress "
                  + name
                  + " (of its results, late records and dead letters) with other sinks or value"
                  + " types: on Lambda a key names the output of a result it keeps until it is"
                  + " delivered by its egress, in this deployment and the next; give each output"
                  + " an egress of its own, or outputs of one egress the same EgressSink object"
                  + " and value type");
        }
        index.put(sink, outputs.size());
        byName.putIfAbsent(name, outputs.size());
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

  /**
   * Whether a kept result of one output is delivered alike by the other: the same sink, the same
   * value type (a kept result's record key is kept with it).
   */
  private static boolean sameDelivery(EgressOutput<?> one, EgressOutput<?> other) {
    return one.sink() == other.sink() && one.valueType().equals(other.valueType());
  }

  /** The name under which a key keeps an output of {@code route}, the same in every deployment. */
  String name(int route) {
    return route == REFUSED ? PLACE_NAME : names.get(route);
  }

  /**
   * The index of the output a kept output names ({@link #name}).
   *
   * @throws MissingOutputException if this deployment has no such output
   */
  int route(String name) {
    Integer route = byName.get(name);
    if (route != null) {
      return route;
    }
    if (name.equals(PLACE_NAME)) {
      return REFUSED;
    }
    int legacy = legacyIndex(name);
    if (legacy >= 0) {
      return legacy;
    }
    throw new MissingOutputException(
        "A key keeps an undelivered output of egress "
            + name
            + ", and this pipeline has no output of that egress (its outputs: "
            + String.join(", ", new java.util.LinkedHashSet<>(names))
            + "): deploy it again with that output until its batches have delivered what keys keep");
  }

  /** The name of an output kept at index {@code route} by an item written before names were. */
  static String legacy(int route) {
    return LEGACY + route;
  }

  /** The index {@link #legacy} named, or -1 for any other name. */
  static int legacyIndex(String name) {
    if (!name.startsWith(LEGACY) || name.length() == LEGACY.length() || name.length() > 6) {
      return -1;
    }
    for (int i = LEGACY.length(); i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') {
        return -1;
      }
    }
    int index = Integer.parseInt(name.substring(LEGACY.length()));
    return index <= Short.MAX_VALUE ? index : -1;
  }

  EgressOutput<?> get(int route) {
    if (route == REFUSED && place != null) {
      return place;
    }
    if (route < 0 || route >= outputs.size()) {
      // A key keeps undelivered outputs by index: one of a deployment with other outputs.
      throw new MissingOutputException(
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
