package dev.statekit.entry.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.json.PlainJson;
import java.util.List;
import java.util.Map;

/** The JSON answers Lambda expects from batch and scheduled invocations. */
public final class Answers {
  /**
   * Built with the first scheduled answer, which turns task summaries of any type into JSON: a
   * batch's answer needs no mapper, and building one costs a cold start's first batch a few hundred
   * milliseconds of class loading.
   */
  private static final class Mapper {
    static final ObjectMapper JSON = new ObjectMapper();
  }

  private Answers() {}

  /** {@code {"batchItemFailures": [{"itemIdentifier": id}, ...]}}. */
  public static byte[] batchItemFailures(List<String> itemIds) {
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    ArrayNode failures = answer.putArray("batchItemFailures");
    for (String id : itemIds) {
      failures.addObject().put("itemIdentifier", id);
    }
    return write(answer);
  }

  /** {@code {"tasks": {name: summary, ...}}}. */
  public static byte[] tasks(Map<String, Object> summaries) {
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    ObjectNode tasks = answer.putObject("tasks");
    summaries.forEach((name, summary) -> tasks.set(name, Mapper.JSON.valueToTree(summary)));
    return write(answer);
  }

  private static byte[] write(ObjectNode answer) {
    // The bytes the mapper's writeValueAsBytes gives; a tree holding no POJO needs no mapper.
    return PlainJson.write(answer);
  }
}
