package dev.statekit.local.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A SAM template: its resources and its functions (with {@code Globals.Function} merged in), and
 * where their code is ({@code CodeUri}, relative to the template's directory). {@link #load} reads
 * a file.
 */
public final class Template {
  private final String source;
  private final Path directory;
  private final String globalCodeUri;
  private final Map<String, Resource> resources = new LinkedHashMap<>();
  private final List<FunctionDef> functions = new ArrayList<>();

  private Template(String source, Path directory, JsonNode root) {
    this.source = source;
    this.directory = directory;
    JsonNode globals = root.path("Globals").path("Function");
    this.globalCodeUri =
        globals.path("CodeUri").isTextual() ? globals.get("CodeUri").asText() : null;
    root.path("Resources")
        .fields()
        .forEachRemaining(
            r -> {
              JsonNode properties = r.getValue().path("Properties");
              Resource resource =
                  new Resource(
                      r.getKey(),
                      r.getValue().path("Type").asText(),
                      properties.isObject() ? properties : JsonNodeFactory.instance.objectNode());
              resources.put(r.getKey(), resource);
            });
    // After every resource is read: a function's role may come later in the template.
    for (Resource resource : resources.values()) {
      if (resource.type().equals("AWS::Serverless::Function")) {
        functions.add(function(resource, globals));
      }
    }
    if (resources.isEmpty()) {
      throw new IllegalArgumentException(source + " has no Resources; is it a SAM template?");
    }
  }

  /**
   * Reads a template file.
   *
   * @throws IOException if it can't be read or is not YAML
   */
  public static Template load(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      Path parent = file.toAbsolutePath().getParent();
      return new Template(file.toString(), parent, TemplateReader.read(in));
    }
  }

  /**
   * Where function {@code logicalId}'s code is: its {@code CodeUri} (or the {@code Globals} one),
   * resolved against the template's directory; empty if it names none (or not as a plain path).
   */
  public Optional<Path> codeUri(String logicalId) {
    Resource resource = resources.get(logicalId);
    JsonNode own = resource == null ? null : resource.properties().get("CodeUri");
    String uri = own != null && own.isTextual() ? own.asText() : globalCodeUri;
    return uri == null || uri.contains("://")
        ? Optional.empty()
        : Optional.of(directory.resolve(uri));
  }

  /** Where the template came from, for messages. */
  public String source() {
    return source;
  }

  /** Every resource, in template order. */
  public List<Resource> resources() {
    return List.copyOf(resources.values());
  }

  /** The resource with this logical id. */
  public Optional<Resource> resource(String logicalId) {
    return Optional.ofNullable(resources.get(logicalId));
  }

  /** The resources of one CloudFormation type, in template order. */
  public List<Resource> resources(String type) {
    return resources.values().stream().filter(r -> r.type().equals(type)).toList();
  }

  /** The first function with a {@code FunctionUrlConfig}: the one a function URL reaches. */
  public Optional<FunctionDef> urlFunction() {
    return functions.stream()
        .filter(f -> resources.get(f.logicalId()).properties().has("FunctionUrlConfig"))
        .findFirst();
  }

  /** The functions, in template order. */
  public List<FunctionDef> functions() {
    return List.copyOf(functions);
  }

  /** The policy documents of the template's role that {@code role} names; none if it names none. */
  private JsonNode rolePolicies(JsonNode role) {
    ArrayNode documents = JsonNodeFactory.instance.arrayNode();
    Resource named = resources.get(Intrinsics.referencedLogicalId(role));
    if (named != null && named.type().equals("AWS::IAM::Role")) {
      named.properties().path("Policies").forEach(p -> documents.add(p.path("PolicyDocument")));
    }
    return documents;
  }

  private FunctionDef function(Resource resource, JsonNode globals) {
    JsonNode p = resource.properties();
    Map<String, JsonNode> environment = new LinkedHashMap<>();
    globals
        .path("Environment")
        .path("Variables")
        .fields()
        .forEachRemaining(v -> environment.put(v.getKey(), v.getValue()));
    p.path("Environment")
        .path("Variables")
        .fields()
        .forEachRemaining(v -> environment.put(v.getKey(), v.getValue()));
    List<EventSource> events = new ArrayList<>();
    p.path("Events")
        .fields()
        .forEachRemaining(
            e ->
                events.add(
                    new EventSource(
                        e.getKey(),
                        e.getValue().path("Type").asText(),
                        e.getValue().path("Properties"))));
    return new FunctionDef(
        resource.logicalId(),
        p.path("Handler").asText(globals.path("Handler").asText("")),
        environment,
        events,
        p.has("Role") ? rolePolicies(p.get("Role")) : p.path("Policies"),
        p.has("Role"),
        p.path("MemorySize").asLong(globals.path("MemorySize").asLong(128)),
        p.path("Timeout").asLong(globals.path("Timeout").asLong(3)));
  }
}
