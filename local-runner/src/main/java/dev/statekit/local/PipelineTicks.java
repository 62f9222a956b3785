package dev.statekit.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.aws.events.EventWriter;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * Fires a function's scheduled event, as the schedule would, until a pipeline's event time (its
 * tick task's {@code watermark}) has reached a point: what a command waits for before it shows what
 * the pipeline did.
 */
final class PipelineTicks {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Invokes the function once. */
  @FunctionalInterface
  interface Function {
    byte[] invoke(byte[] payload) throws Exception;
  }

  private PipelineTicks() {}

  /**
   * The rule {@code function}'s schedule names (its Schedule event's {@code Name}, resolved as the
   * local runner resolves the template), or "local" if it names none.
   */
  static String rule(dev.statekit.local.template.FunctionDef function) {
    for (dev.statekit.local.template.EventSource event : function.events()) {
      JsonNode name = event.properties().get("Name");
      if (event.type().equals("Schedule") && name != null) {
        return dev.statekit.local.template.LocalResources.resolvePseudo(name, "us-east-1");
      }
    }
    return "local";
  }

  /**
   * Ticks every half second, as the schedule {@code rule}, until the task's watermark is at least
   * {@code target}.
   *
   * @return the watermark reached
   * @throws IllegalStateException if it did not within {@code wait}, or the function has no such
   *     task
   */
  static long until(Function function, String rule, String task, long target, Duration wait)
      throws Exception {
    long deadline = System.nanoTime() + wait.toNanos();
    long watermark = Long.MIN_VALUE;
    while (true) {
      JsonNode answer =
          read(function.invoke(EventWriter.scheduled(Instant.now(), rule, "us-east-1")));
      JsonNode result = answer.path("tasks").path(task);
      if (!result.has("watermark")) {
        throw new IllegalStateException(
            "The function's scheduled event did not run " + task + ": it answered " + answer);
      }
      watermark = result.get("watermark").asLong();
      if (watermark >= target) {
        return watermark;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "The pipeline's event time stayed at "
                + describe(watermark)
                + " for "
                + wait.toSeconds()
                + " s, short of "
                + describe(target)
                + ": a shard that is neither fed nor idle holds it back");
      }
      Thread.sleep(500);
    }
  }

  /** An event time as an instant, or "not started". */
  static String describe(long watermark) {
    return watermark == Long.MIN_VALUE ? "not started" : Instant.ofEpochMilli(watermark).toString();
  }

  private static JsonNode read(byte[] answer) throws IOException {
    return JSON.readTree(answer);
  }
}
