package dev.statekit.event;

/** Work done on every scheduled event: the timer sweep of delayed messages, a pipeline's tick. */
@FunctionalInterface
public interface ScheduledTask {
  /**
   * Runs the task once.
   *
   * @return a summary of what it did, written into the answer as JSON (a record, a map, a number)
   */
  Object run(ScheduledEvent event) throws Exception;
}
