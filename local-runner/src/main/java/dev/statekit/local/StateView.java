package dev.statekit.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.function.Address;
import dev.statekit.function.StatefulFunctionSpec;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.runtime.store.FunctionStore;
import dev.statekit.runtime.store.StoredValue;
import java.io.IOException;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/**
 * An address's stored values as JSON, each decoded by the type its function declares: {@code
 * {"address", "version", "values": {name: {"type", "value", "expiresAt"}}}}. Expired values are
 * listed as expired: functions no longer see them.
 */
final class StateView {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final StatefulFunctions functions;
  private final FunctionStore store;

  StateView(StatefulFunctions functions, FunctionStore store) {
    this.functions = functions;
    this.store = store;
  }

  /**
   * The values of {@code address} ({@code ns/type/id}).
   *
   * @throws IllegalArgumentException if it is not an address of a registered function
   */
  String json(String address) {
    try {
      return JSON.writeValueAsString(tree(address));
    } catch (IOException e) {
      throw new IllegalStateException("Could not write the state of " + address, e);
    }
  }

  /**
   * Like {@link #json}, with the address's pending delayed messages: {@code "pending": [{"token",
   * "dueAt", "message"}]} (the queue message each sends when due).
   */
  ObjectNode tree(String address) {
    Address target = new AddressArgument().convert(address);
    StatefulFunctionSpec spec =
        functions
            .get(target.type())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "No function is registered for "
                            + target.type()
                            + "; the functions are "
                            + functions.types()));
    AddressState state = store.reload(target);
    ObjectNode root = JSON.createObjectNode();
    root.put("address", target.toString());
    root.put("version", state.version());
    ObjectNode values = root.putObject("values");
    long now = System.currentTimeMillis();
    for (Map.Entry<String, StoredValue> stored : state.values().entrySet()) {
      ObjectNode value = values.putObject(stored.getKey());
      StoredValue v = stored.getValue();
      value.put("type", v.typeName());
      value.set("value", decode(spec, stored.getKey(), v));
      if (v.expiresAtMillis() > 0) {
        value.put("expiresAt", Instant.ofEpochMilli(v.expiresAtMillis()).toString());
      }
      if (v.isExpiredAt(now)) {
        value.put("expired", true);
      }
    }
    var pending = root.putArray("pending");
    state
        .pendingTokens()
        .forEach(
            (token, key) -> {
              ObjectNode timer = pending.addObject();
              timer.put("token", token);
              timer.put("dueAt", Instant.ofEpochMilli(key.dueAtMillis()).toString());
              store.timer(key).ifPresent(t -> timer.put("message", t.body()));
            });
    return root;
  }

  /** The functions whose state this view decodes. */
  StatefulFunctions functions() {
    return functions;
  }

  private static com.fasterxml.jackson.databind.JsonNode decode(
      StatefulFunctionSpec spec, String name, StoredValue value) {
    for (ValueSpec<?> declared : spec.valueSpecs()) {
      if (declared.name().equals(name) && declared.typeName().asString().equals(value.typeName())) {
        try {
          return JSON.valueToTree(declared.type().deserialize(value.bytes()));
        } catch (RuntimeException e) {
          break;
        }
      }
    }
    return JSON.getNodeFactory()
        .textNode("base64:" + Base64.getEncoder().encodeToString(value.bytes()));
  }
}
