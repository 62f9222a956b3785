package dev.statekit.stream.internal;

import dev.statekit.stream.Pipeline;
import java.util.Objects;

/**
 * Lets StateKit's engines plan a {@link Pipeline} (the threaded engine and the Lambda batch engine
 * plan the same pipeline) without a public method on it that user code has no use for. The pipeline
 * class installs the access when it loads, which it has by the time a pipeline exists.
 */
public final class PipelinePlans {
  private static volatile Access access;

  private PipelinePlans() {}

  /** What the pipeline class grants. */
  @FunctionalInterface
  public interface Access {
    /** The plan of {@code pipeline} with {@code parallelism} workers per keyed stage. */
    Plan plan(Pipeline pipeline, int parallelism);
  }

  /**
   * Called once by the pipeline class.
   *
   * @throws IllegalStateException if called again
   */
  public static synchronized void install(Access granted) {
    if (access != null) {
      throw new IllegalStateException("The plan access is installed by StateKit itself");
    }
    access = Objects.requireNonNull(granted);
  }

  /**
   * The stages and operators of {@code pipeline}, keyed stages with {@code parallelism} workers
   * unless their keyBy says otherwise.
   *
   * @throws IllegalArgumentException if an operator is out of place
   */
  public static Plan plan(Pipeline pipeline, int parallelism) {
    Objects.requireNonNull(pipeline, "pipeline");
    return access.plan(pipeline, parallelism);
  }
}
