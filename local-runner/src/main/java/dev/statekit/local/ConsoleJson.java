package dev.statekit.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.application.Application;
import dev.statekit.application.EgressQueue;
import dev.statekit.function.StatefulFunctionSpec;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.PipelineGraph;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.types.TypeName;
import java.io.IOException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The parts of the console's documents every backend answers alike. */
final class ConsoleJson {
  static final ObjectMapper JSON = new ObjectMapper();

  private ConsoleJson() {}

  /** {@code overview}: the declaration, the graphs and the edges seen. */
  static ObjectNode overview(
      Application application,
      String backend,
      boolean readOnly,
      StatefulFunctions functions,
      Map<String, PipelineGraph> graphs,
      Map<String, Long> edges,
      boolean observed) {
    ObjectNode root = JSON.createObjectNode();
    root.put("application", application.name());
    root.put("backend", backend);
    root.put("readOnly", readOnly);
    root.put("invocationsObserved", observed);
    ArrayNode list = root.putArray("functions");
    functions.types().stream()
        .sorted(Comparator.comparing(TypeName::toString))
        .forEach(
            type -> {
              StatefulFunctionSpec spec = functions.get(type).orElseThrow();
              ObjectNode function = list.addObject();
              function.put("type", type.toString());
              ArrayNode values = function.putArray("values");
              for (ValueSpec<?> value : spec.valueSpecs()) {
                ObjectNode v = values.addObject();
                v.put("name", value.name());
                v.put("type", value.typeName().toString());
                v.put("expiration", value.expiration().toString());
              }
            });
    ArrayNode egresses = root.putArray("egresses");
    for (EgressQueue queue : application.egressQueues()) {
      ObjectNode e = egresses.addObject();
      e.put("egress", queue.egress().toString());
      e.put("queueVariable", queue.queueVariable());
    }
    ArrayNode pipelines = root.putArray("pipelines");
    graphs.forEach((name, graph) -> pipelines.add(graph(name, graph)));
    ArrayNode seen = root.putArray("edges");
    edges.forEach(
        (edge, count) -> {
          int arrow = edge.indexOf(" -> ");
          ObjectNode e = seen.addObject();
          e.put("from", edge.substring(0, arrow));
          e.put("to", edge.substring(arrow + 4));
          e.put("count", count);
        });
    return root;
  }

  private static ObjectNode graph(String name, PipelineGraph graph) {
    ObjectNode node = JSON.createObjectNode();
    node.put("name", name);
    ArrayNode stages = node.putArray("stages");
    for (PipelineGraph.Stage stage : graph.stages()) {
      ObjectNode s = stages.addObject();
      s.put("index", stage.index());
      s.put("parallelism", stage.parallelism());
      s.set("input", operator(stage.input()));
      ArrayNode operators = s.putArray("operators");
      stage.operators().forEach(o -> operators.add(operator(o)));
    }
    return node;
  }

  private static ObjectNode operator(OperatorDescription operator) {
    ObjectNode node = JSON.createObjectNode();
    node.put("type", operator.type());
    node.put("label", operator.label());
    ObjectNode config = node.putObject("config");
    new TreeMap<>(operator.config()).forEach(config::put);
    return node;
  }

  /** One split of a pipeline, as the console shows it. */
  static ObjectNode split(SplitState split, long now) {
    ObjectNode node = JSON.createObjectNode();
    node.put("split", split.split());
    node.put("position", split.position());
    node.put("watermark", time(split.watermark()));
    node.put("fireWatermark", time(split.fireWatermark()));
    node.put(
        "activeAt",
        split.activeAt() > 0 ? Instant.ofEpochMilli(split.activeAt()).toString() : null);
    node.put("idleMillis", split.activeAt() > 0 ? Math.max(0, now - split.activeAt()) : -1);
    node.put("firedThrough", time(split.firedThrough()));
    node.put("givenUp", split.givenUp().size());
    return node;
  }

  private static String time(long millis) {
    return millis == Long.MIN_VALUE || millis == Long.MAX_VALUE || millis <= 0
        ? null
        : Instant.ofEpochMilli(millis).toString();
  }

  /** A dead letter's body and attributes as the console lists it. */
  static ObjectNode deadLetter(String id, String body, Map<String, String> attributes) {
    ObjectNode node = JSON.createObjectNode();
    node.put("id", id);
    node.put("target", attributes.get("statekit.target"));
    node.put("kind", attributes.getOrDefault("statekit.kind", "message"));
    node.put(
        "error",
        attributes.getOrDefault(
            "statekit.error", "moved by the queue's redrive, without the runtime's error"));
    node.put("errorType", attributes.get("statekit.error-type"));
    node.put("attempts", attributes.get("statekit.attempts"));
    node.put("applied", attributes.get("statekit.applied"));
    node.put("body", body);
    node.put("editable", editable(body));
    return node;
  }

  /**
   * The envelope with a JSON type's value shown as JSON rather than the base64 a dead letter
   * carries it as (the ingress takes either), so that it can be read and fixed by hand.
   */
  static String editable(String body) {
    try {
      com.fasterxml.jackson.databind.JsonNode tree = JSON.readTree(body);
      if (tree instanceof ObjectNode envelope
          && envelope.path("value").isTextual()
          && !envelope.path("typename").asText().startsWith("io.statefun.types/")) {
        byte[] bytes = java.util.Base64.getDecoder().decode(envelope.get("value").asText());
        if (bytes.length > 0 && (bytes[0] == '{' || bytes[0] == '[')) {
          envelope.set("value", JSON.readTree(bytes));
          return JSON.writeValueAsString(envelope);
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      // Not JSON inside: shown as it is.
    }
    return body;
  }

  static List<String> names(Map<String, ?> map) {
    return List.copyOf(map.keySet());
  }
}
