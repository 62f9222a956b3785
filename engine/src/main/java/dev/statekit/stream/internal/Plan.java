package dev.statekit.stream.internal;

import dev.statekit.stream.Sink;
import dev.statekit.stream.Source;
import java.util.List;

/**
 * A pipeline cut into stages: the source stage, then one stage per keyBy. Operators of a stage run
 * chained, as direct calls, on each of its workers.
 *
 * @param source the source
 * @param stages the stages in order
 * @param sinks every sink (main, dead letters, late records), to recover on restore
 */
public record Plan(Source<Object> source, List<Stage> stages, List<Sink<?>> sinks) {
  /**
   * One stage.
   *
   * @param keyBy how records reach it, null for the source stage
   * @param parallelism how many workers run it
   * @param operators its chain, ending with the sink in the last stage
   */
  public record Stage(KeyBySpec keyBy, int parallelism, List<OperatorSpec> operators) {}
}
