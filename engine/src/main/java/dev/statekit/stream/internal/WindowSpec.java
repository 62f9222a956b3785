package dev.statekit.stream.internal;

import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.Sink;
import dev.statekit.stream.WindowFunction;
import dev.statekit.stream.WindowResult;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serde;
import java.util.HashMap;
import java.util.Map;

/**
 * window: event-time windows per key, each either aggregated incrementally ({@code aggregate} set)
 * or buffered and processed whole ({@code process} set).
 */
public record WindowSpec(
    Windows windows,
    AggregateFunction<Object, Object, Object> aggregate,
    WindowResult<Object, Object, Object> result,
    WindowFunction<Object, Object, Object> process,
    Serde<Object> stateSerde,
    Sink<Object> lateRecords,
    Serde<Object> keySerde,
    String label)
    implements OperatorSpec {
  /** Checks that exactly one of aggregate and process is set. */
  public WindowSpec {
    if ((aggregate == null) == (process == null)) {
      throw new IllegalArgumentException("A window has either an aggregate or a process function");
    }
  }

  @Override
  public OperatorDescription describe() {
    Map<String, String> config = new HashMap<>(windows.describe());
    config.put("function", aggregate != null ? "aggregate" : "process");
    config.put("late_records", lateRecords == null ? "counted" : "counted+" + lateRecords.name());
    return new OperatorDescription("window", label, config);
  }

  @Override
  public boolean keyed() {
    return true;
  }

  @Override
  public Operator create() {
    return new WindowOperator(this);
  }
}
