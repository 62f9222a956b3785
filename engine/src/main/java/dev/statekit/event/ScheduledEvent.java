package dev.statekit.event;

import dev.statekit.Deadline;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An EventBridge scheduled event, with the time the invocation has left to answer it.
 *
 * @param id the event's id
 * @param time when the schedule fired
 * @param resources the ARNs of the rules that fired
 * @param deadline when the invocation must have answered: a task that may run long stops before it
 *     and leaves the rest for the next scheduled event ({@link Deadline#none()} outside Lambda)
 */
public record ScheduledEvent(String id, Instant time, List<String> resources, Deadline deadline) {
  /** Checks and copies the parts. */
  public ScheduledEvent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(time, "time");
    resources = List.copyOf(resources);
    Objects.requireNonNull(deadline, "deadline");
  }

  /** An event with no deadline. */
  public ScheduledEvent(String id, Instant time, List<String> resources) {
    this(id, time, resources, Deadline.none());
  }

  /** This event, to be answered by {@code deadline}. */
  public ScheduledEvent withDeadline(Deadline deadline) {
    return new ScheduledEvent(id, time, resources, deadline);
  }
}
