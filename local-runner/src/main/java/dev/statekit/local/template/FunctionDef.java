package dev.statekit.local.template;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * A function of the template, with the {@code Globals} merged in.
 *
 * @param logicalId its name in the template
 * @param handler {@code class::method}
 * @param environment its environment variables (unresolved: values may be Ref, GetAtt, Sub)
 * @param events its event sources
 * @param policies its {@code Policies}, or the policy documents of the template's role it names
 * @param ownRole true if it names its {@code Role} (SAM then attaches no policy of its own)
 * @param memoryMb {@code MemorySize}
 * @param timeoutSeconds {@code Timeout}
 */
public record FunctionDef(
    String logicalId,
    String handler,
    Map<String, JsonNode> environment,
    List<EventSource> events,
    JsonNode policies,
    boolean ownRole,
    long memoryMb,
    long timeoutSeconds) {
  /** Copies the parts. */
  public FunctionDef {
    environment = Map.copyOf(environment);
    events = List.copyOf(events);
  }

  /** The handler's class name. */
  public String handlerClass() {
    int colons = handler.indexOf("::");
    return colons < 0 ? handler : handler.substring(0, colons);
  }

  /** The handler's method name ({@code handleRequest} if the handler names none). */
  public String handlerMethod() {
    int colons = handler.indexOf("::");
    return colons < 0 ? "handleRequest" : handler.substring(colons + 2);
  }
}
