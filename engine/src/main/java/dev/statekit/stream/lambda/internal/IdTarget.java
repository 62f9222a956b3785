package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.lambda.internal.SourceOutcome.Routed;
import java.util.function.Consumer;

/**
 * Gives the outputs of one unit of work (a source record, a keyed record, a window) ids that every
 * replay repeats: {@code <pipeline>/<base>/<n>}, {@code n} counting the unit's outputs.
 */
final class IdTarget implements Capture.Target {
  private final String pipeline;
  private final Routes routes;
  private final String source;
  private final String base;
  private final Consumer<Routed> sink;
  private int next;

  /**
   * @param source the source address id of the outputs (their key, or the split)
   * @param base what identifies the unit of work
   * @param sink where the outputs go
   */
  IdTarget(String pipeline, Routes routes, String source, String base, Consumer<Routed> sink) {
    this.pipeline = pipeline;
    this.routes = routes;
    this.source = source;
    this.base = base;
    this.sink = sink;
  }

  @Override
  public void output(int route, Record<?> record) {
    String id = pipeline + "/" + base + "/" + next++;
    try {
      sink.accept(
          new Routed(route, routes.get(route).record(id, pipeline, source, record.value())));
    } catch (ClassCastException e) {
      throw new IllegalArgumentException(
          "Output "
              + routes.get(route).name()
              + " cannot write "
              + record.value()
              + " ("
              + record.value().getClass().getName()
              + "): give EgressOutput.to(...) a type of the pipeline's results",
          e);
    }
  }
}
