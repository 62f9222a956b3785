package dev.statekit.stream;

import dev.statekit.stream.internal.PipelinePlans;
import dev.statekit.stream.internal.Plan;
import dev.statekit.stream.internal.Planner;
import dev.statekit.stream.internal.threaded.PipelineRun;
import java.util.List;
import java.util.Objects;

/**
 * A complete pipeline, from a source to a sink:
 *
 * <pre>{@code
 * Pipeline pipeline =
 *     Pipeline.from(source)
 *         .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(200)))
 *         .keyBy(Order::customer, 2)
 *         .window(Windows.tumbling(Duration.ofMinutes(1)))
 *         .aggregate(AggregateFunction.count())
 *         .to(sink);
 * PipelineResult result = pipeline.run(RunOptions.named("orders").build());
 * }</pre>
 *
 * Immutable: the same pipeline can run many times; a run restores the latest complete checkpoint of
 * its name from its checkpoint store.
 */
public final class Pipeline {
  static {
    PipelinePlans.install(Pipeline::plan);
  }

  private final Source<Object> source;
  private final List<Object> steps;
  private final Sink<Object> sink;

  Pipeline(Source<Object> source, List<Object> steps, Sink<Object> sink) {
    this.source = source;
    this.steps = steps;
    this.sink = sink;
  }

  /** Starts a pipeline reading {@code source}. */
  public static <T> DataStream<T> from(Source<T> source) {
    Objects.requireNonNull(source, "source");
    return new DataStream<>(DataStream.cast(source), List.of());
  }

  /** The stages and operators this pipeline runs as, with {@code options}' parallelism. */
  public PipelineGraph graph(RunOptions options) {
    return PipelineGraph.of(plan(options));
  }

  private Plan plan(RunOptions options) {
    return plan(options.parallelism());
  }

  private Plan plan(int parallelism) {
    return Planner.plan(source, steps, sink, parallelism);
  }

  /**
   * Runs until the source ends, then takes a final checkpoint.
   *
   * @throws PipelineFailedException if the run failed; state is as of the last checkpoint
   */
  public PipelineResult run(RunOptions options) throws InterruptedException {
    return start(options).await();
  }

  /** Starts a run in the background. */
  public RunningPipeline start(RunOptions options) {
    // A pipeline the planner refuses is a programming error and fails as such; anything after that
    // (a checkpoint that cannot be read or restored, a sink that cannot open) fails the run.
    Plan plan = plan(options);
    try {
      return new PipelineRun(plan, options).start();
    } catch (Exception e) {
      throw new PipelineFailedException(
          "Pipeline '" + options.name() + "' could not start: " + e.getMessage(), e);
    }
  }
}
