package dev.statekit.protocol;

import dev.statekit.function.Address;
import dev.statekit.function.TypeName;
import dev.statekit.function.internal.TypedValue;

/** Turns the request's protobuf pieces into the engine's plain values, refusing incomplete ones. */
final class RequestDecoding {
  private RequestDecoding() {}

  static Address address(dev.statekit.protocol.internal.wire.Address address, String role) {
    String namespace = address.getNamespace();
    String type = address.getType();
    String id = address.getId();
    if (namespace.isEmpty() || type.isEmpty() || id.isEmpty() || type.indexOf('/') >= 0) {
      throw new MalformedRequestException(
          "The "
              + role
              + " address '"
              + namespace
              + "/"
              + type
              + "/"
              + id
              + "' is incomplete: namespace, type and id must all be non-empty");
    }
    return Address.of(TypeName.of(namespace, type), id);
  }

  /** The argument of an invocation: its type name must be namespace/name. */
  static TypedValue argument(
      dev.statekit.protocol.internal.wire.TypedValue value, Address target, int index) {
    String typeName = value.getTypename();
    int slash = typeName.lastIndexOf('/');
    if (slash <= 0 || slash == typeName.length() - 1) {
      throw new MalformedRequestException(
          "Invocation "
              + (index + 1)
              + " for "
              + target
              + " has an argument whose typename '"
              + typeName
              + "' is not namespace/name; every argument needs a typed value");
    }
    return new TypedValue(typeName, value.getValue().toByteArray());
  }

  /** A persisted value; {@code null} when the runtime knows the state but it has no value. */
  static TypedValue stateValue(dev.statekit.protocol.internal.wire.ToFunction.PersistedValue pv) {
    if (!pv.hasStateValue() || !pv.getStateValue().getHasValue()) {
      return null;
    }
    dev.statekit.protocol.internal.wire.TypedValue value = pv.getStateValue();
    return new TypedValue(value.getTypename(), value.getValue().toByteArray());
  }
}
