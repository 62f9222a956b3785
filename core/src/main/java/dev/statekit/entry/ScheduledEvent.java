package dev.statekit.entry;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An EventBridge scheduled event.
 *
 * @param id the event's id
 * @param time when the schedule fired
 * @param resources the ARNs of the rules that fired
 */
public record ScheduledEvent(String id, Instant time, List<String> resources) {
  /** Checks and copies the parts. */
  public ScheduledEvent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(time, "time");
    resources = List.copyOf(resources);
  }
}
