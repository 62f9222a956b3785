package dev.statekit.stream;

/** A pipeline started in the background. */
public interface RunningPipeline {
  /**
   * Stops reading the source, drains records in flight, takes a last checkpoint and ends; open
   * windows stay in that checkpoint. Returns at once; {@link #await()} waits for the end.
   */
  void stop();

  /**
   * Waits for the run to end.
   *
   * @throws PipelineFailedException if it failed
   */
  PipelineResult await() throws InterruptedException;
}
