package dev.statekit.stream;

import dev.statekit.stream.internal.OperatorSpec;
import dev.statekit.stream.internal.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The graph view of a planned pipeline: its stages, each with its parallelism and its chain of
 * operators, and how records move between stages.
 *
 * @param stages the stages in order
 */
public record PipelineGraph(List<Stage> stages) {
  /**
   * One stage.
   *
   * @param index its position, 0 for the source stage
   * @param parallelism how many workers run it
   * @param input how records reach it (the source, or a keyBy)
   * @param operators its chained operators
   */
  public record Stage(
      int index, int parallelism, OperatorDescription input, List<OperatorDescription> operators) {}

  static PipelineGraph of(Plan plan) {
    List<Stage> stages = new ArrayList<>();
    for (int i = 0; i < plan.stages().size(); i++) {
      Plan.Stage stage = plan.stages().get(i);
      OperatorDescription input =
          stage.keyBy() == null
              ? new OperatorDescription("source", plan.source().name(), Map.of())
              : stage.keyBy().describe(stage.parallelism());
      List<OperatorDescription> operators =
          stage.operators().stream().map(OperatorSpec::describe).toList();
      stages.add(new Stage(i, stage.parallelism(), input, operators));
    }
    return new PipelineGraph(List.copyOf(stages));
  }

  /** One line per stage: {@code stage 1 x2: keyBy {...} -> reduce -> sink "counting"}. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    for (Stage stage : stages) {
      out.append("stage ").append(stage.index()).append(" x").append(stage.parallelism());
      out.append(": ").append(stage.input());
      stage.operators().forEach(o -> out.append(" -> ").append(o));
      out.append('\n');
    }
    return out.toString();
  }
}
