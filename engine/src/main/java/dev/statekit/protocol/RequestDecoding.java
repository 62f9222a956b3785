package dev.statekit.protocol;

import dev.statekit.function.Address;
import dev.statekit.types.TypeName;

/** Turns the request's parts into the engine's values, refusing incomplete ones. */
final class RequestDecoding {
  private RequestDecoding() {}

  /** An address from its namespace, type and id. */
  static Address address(String[] parts, String role) {
    check(parts, role);
    return Address.of(TypeName.of(parts[0], parts[1]), parts[2]);
  }

  /** Checks an address's namespace, type and id. */
  static void check(String[] parts, String role) {
    if (!isComplete(parts)) {
      String namespace = parts[0];
      String type = parts[1];
      String id = parts[2];
      throw new MalformedRequestException(
          "The "
              + role
              + " address '"
              + Shown.shown(namespace)
              + "/"
              + Shown.shown(type)
              + "/"
              + Shown.shown(id)
              + "' is incomplete: namespace, type and id must all be non-empty");
    }
  }

  /** Whether {@link #check} takes the address. */
  static boolean isComplete(String[] parts) {
    return !parts[0].isEmpty()
        && !parts[1].isEmpty()
        && !parts[2].isEmpty()
        && parts[1].indexOf('/') < 0;
  }

  /** Checks the type name of an invocation's argument: it must be namespace/name. */
  static void checkArgumentType(String typeName, Address target, int index) {
    if (!isArgumentType(typeName)) {
      throw new MalformedRequestException(
          "Invocation "
              + (index + 1)
              + " for "
              + Shown.shown(target.toString())
              + " has an argument whose typename '"
              + Shown.shown(typeName)
              + "' is not namespace/name; every argument needs a typed value");
    }
  }

  /** Whether {@link #checkArgumentType} takes the type name. */
  static boolean isArgumentType(String typeName) {
    int slash = typeName.lastIndexOf('/');
    return slash > 0 && slash < typeName.length() - 1;
  }

  /**
   * Checks that an invocation's argument sets {@code has_value}: a message always carries a value
   * (the SDK refuses one that does not, as "Unset empty Messages are prohibited").
   */
  static void checkArgumentSet(boolean set, Address target, int index) {
    if (!set) {
      throw new MalformedRequestException(
          "Invocation "
              + (index + 1)
              + " for "
              + Shown.shown(target.toString())
              + " has an argument whose has_value is false; a message must carry a value (set"
              + " has_value, even for an empty value)");
    }
  }

  /**
   * Whether the handler runs an invocation with this argument type, whether its argument sets
   * {@code has_value}, and its caller ({@code null} for none) once it reaches it, rather than
   * refusing the request there.
   */
  static boolean isRunnable(String argumentType, boolean argumentSet, String[] caller) {
    return isArgumentType(argumentType) && argumentSet && (caller == null || isComplete(caller));
  }
}
