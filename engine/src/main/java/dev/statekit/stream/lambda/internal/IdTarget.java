package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.lambda.internal.SourceOutcome.Routed;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Gives the outputs of one unit of work (a source record, a keyed record, a window) ids that every
 * replay repeats: {@code <pipeline>/<base>/<n>}, {@code n} counting the unit's outputs.
 */
final class IdTarget implements Capture.Target {
  private final String pipeline;
  private final Routes routes;
  private final Object source;
  private final Supplier<String> base;
  private final Consumer<Routed> sink;
  private int next;

  /**
   * Most units of work output nothing (a record of a window, a window whose result is filtered
   * out): what names them is put together only when one does.
   *
   * @param source the source address id of the outputs (their key, or the split), as its {@code
   *     String.valueOf}
   * @param base what identifies the unit of work
   * @param sink where the outputs go
   */
  IdTarget(
      String pipeline, Routes routes, Object source, Supplier<String> base, Consumer<Routed> sink) {
    this.pipeline = pipeline;
    this.routes = routes;
    this.source = source;
    this.base = base;
    this.sink = sink;
  }

  @Override
  public void output(int route, Record<?> record) {
    String id = pipeline + "/" + base.get() + "/" + next++;
    try {
      sink.accept(
          new Routed(
              route,
              routes.get(route).record(id, pipeline, String.valueOf(source), record.value())));
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
