package dev.statekit.entry.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/** The JSON answers Lambda expects from batch and scheduled invocations. */
public final class Answers {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Answers() {}

  /** {@code {"batchItemFailures": [{"itemIdentifier": id}, ...]}}. */
  public static byte[] batchItemFailures(List<String> itemIds) {
    ObjectNode answer = JSON.createObjectNode();
    ArrayNode failures = answer.putArray("batchItemFailures");
    for (String id : itemIds) {
      failures.addObject().put("itemIdentifier", id);
    }
    return write(answer);
  }

  /** {@code {"tasks": {name: summary, ...}}}. */
  public static byte[] tasks(Map<String, Object> summaries) {
    ObjectNode answer = JSON.createObjectNode();
    ObjectNode tasks = answer.putObject("tasks");
    summaries.forEach((name, summary) -> tasks.set(name, JSON.valueToTree(summary)));
    return write(answer);
  }

  private static byte[] write(ObjectNode answer) {
    try {
      return JSON.writeValueAsBytes(answer);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "Could not write the answer JSON: " + e.getOriginalMessage(), e);
    }
  }
}
