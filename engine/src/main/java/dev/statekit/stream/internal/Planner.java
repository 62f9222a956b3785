package dev.statekit.stream.internal;

import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Sink;
import dev.statekit.stream.Source;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a pipeline's steps into stages at each keyBy. Stateless operators join the stage before them
 * (same parallelism, direct calls); keyed operators must come right after a keyBy.
 */
public final class Planner {
  private Planner() {}

  /**
   * Plans the steps ({@link OperatorSpec}s and {@link KeyBySpec}s) between source and sink.
   *
   * @throws IllegalArgumentException if a step is out of place
   */
  public static Plan plan(
      Source<Object> source, List<Object> steps, Sink<Object> sink, int defaultParallelism) {
    int readers = source.maxReaders();
    if (readers < 1) {
      throw new IllegalArgumentException(
          source.name() + ".maxReaders() must be at least 1, got " + readers);
    }
    List<Plan.Stage> stages = new ArrayList<>();
    List<Sink<?>> sinks = new ArrayList<>();
    KeyBySpec keyBy = null;
    List<OperatorSpec> chain = new ArrayList<>();
    for (Object step : steps) {
      if (step instanceof KeyBySpec next) {
        stages.add(stage(keyBy, chain, defaultParallelism, readers));
        keyBy = next;
        chain = new ArrayList<>();
        continue;
      }
      OperatorSpec operator = (OperatorSpec) step;
      if (operator.keyed() && (keyBy == null || !chain.isEmpty())) {
        throw new IllegalArgumentException(
            operator.describe().type() + " must come right after a keyBy");
      }
      if (operator instanceof WatermarkSpec && keyBy != null) {
        throw new IllegalArgumentException(
            "withWatermarks must come before the first keyBy: watermarks start at the source");
      }
      sideSinks(operator, sinks);
      chain.add(operator);
    }
    chain.add(new SinkSpec(sink));
    sinks.add(sink);
    stages.add(stage(keyBy, chain, defaultParallelism, readers));
    requireWatermarksForWindows(steps);
    return new Plan(source, List.copyOf(stages), List.copyOf(sinks));
  }

  /**
   * A window fires when the watermark passes its end, and only withWatermarks makes watermarks:
   * without it the run would end with every window's result silently unsent.
   */
  private static void requireWatermarksForWindows(List<?> steps) {
    boolean watermarks = false;
    for (Object step : steps) {
      watermarks |= step instanceof WatermarkSpec;
      if (step instanceof WindowSpec && !watermarks) {
        throw new IllegalArgumentException(
            "Windows need event time and watermarks: call"
                + " withWatermarks(WatermarkStrategy.boundedOutOfOrderness(...)) before keyBy"
                + " (withTimestamps(...) if the source's records carry no timestamps of their"
                + " own)");
      }
    }
  }

  /** The source stage runs one worker per source reader; a keyed stage one per partition. */
  private static Plan.Stage stage(
      KeyBySpec keyBy, List<OperatorSpec> chain, int parallelism, int readers) {
    int workers =
        keyBy == null
            ? Math.min(readers, parallelism)
            : keyBy.partitions() == 0 ? parallelism : keyBy.partitions();
    return new Plan.Stage(keyBy, workers, List.copyOf(chain));
  }

  private static void sideSinks(OperatorSpec operator, List<Sink<?>> sinks) {
    if (operator instanceof ProcessSpec p && p.policy().kind() == FailurePolicy.Kind.DEAD_LETTER) {
      sinks.add(p.policy().deadLetters());
    }
    if (operator instanceof WindowSpec w && w.lateRecords() != null) {
      sinks.add(w.lateRecords());
    }
  }

  /** A stable id for the operator at {@code position} of stage {@code stage}. */
  public static String operatorId(int stage, int position, OperatorSpec operator) {
    return stage + "." + position + "-" + operator.describe().type();
  }
}
