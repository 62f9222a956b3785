package dev.statekit.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.statekit.function.StatefulFunctionSpec;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.Type;
import dev.statekit.types.Types;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;

/**
 * Typed bytes as JSON for the console: a function's stored value by the type its spec declares; a
 * message or egress record by its type name (StateKit's built-in types decoded, a JSON type's bytes
 * read as JSON); what can't be read as {@code "base64:..."}.
 */
final class ConsoleValues {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, Type<?>> BUILT_IN =
      Map.of(
          Types.stringType().typeName().asString(), Types.stringType(),
          Types.integerType().typeName().asString(), Types.integerType(),
          Types.longType().typeName().asString(), Types.longType(),
          Types.booleanType().typeName().asString(), Types.booleanType(),
          Types.doubleType().typeName().asString(), Types.doubleType(),
          Types.floatType().typeName().asString(), Types.floatType());

  private ConsoleValues() {}

  /** A stored value of {@code spec}'s function, by the type its value spec declares. */
  static JsonNode stored(StatefulFunctionSpec spec, String name, String typeName, byte[] bytes) {
    if (spec != null) {
      for (ValueSpec<?> declared : spec.valueSpecs()) {
        if (declared.name().equals(name) && declared.typeName().asString().equals(typeName)) {
          try {
            return JSON.valueToTree(declared.type().deserialize(bytes));
          } catch (RuntimeException e) {
            break;
          }
        }
      }
    }
    return payload(typeName, bytes);
  }

  /** A message's or egress record's value, by its type name alone. */
  static JsonNode payload(String typeName, byte[] bytes) {
    Type<?> builtIn = BUILT_IN.get(typeName);
    if (builtIn != null) {
      try {
        return JSON.valueToTree(builtIn.deserialize(bytes));
      } catch (RuntimeException e) {
        return raw(bytes);
      }
    }
    if (bytes.length > 0 && (bytes[0] == '{' || bytes[0] == '[')) {
      try {
        return JSON.readTree(bytes);
      } catch (IOException e) {
        return raw(bytes);
      }
    }
    return raw(bytes);
  }

  private static JsonNode raw(byte[] bytes) {
    return JsonNodeFactory.instance.textNode("base64:" + Base64.getEncoder().encodeToString(bytes));
  }
}
