package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.Record;
import dev.statekit.stream.Sink;
import dev.statekit.stream.SinkWriter;
import java.util.function.UnaryOperator;

/**
 * Stands in for the pipeline's sinks in a batch's chains: whatever an operator writes goes to the
 * current {@link Target}, which the batch sets before each source record, key input or window it
 * runs, and which gives the output its id.
 */
final class Capture implements UnaryOperator<Sink<Object>> {
  /** Where outputs go now. */
  interface Target {
    void output(int route, Record<?> record);
  }

  private final Routes routes;
  private Target target;

  Capture(Routes routes) {
    this.routes = routes;
  }

  void target(Target next) {
    this.target = next;
  }

  @Override
  public Sink<Object> apply(Sink<Object> sink) {
    int route = routes.index(sink);
    return new Sink<>() {
      @Override
      public SinkWriter<Object> open(int worker, int workers) {
        return record -> target.output(route, record);
      }

      @Override
      public String name() {
        return sink.name();
      }
    };
  }
}
