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

  /** A namespace as the wire gives it, read as {@link TypeName#of} reads it. */
  static String namespace(String namespace) {
    return namespace.endsWith("/") ? namespace.substring(0, namespace.length() - 1) : namespace;
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
              + "' is incomplete: namespace (apart from one '/' ending it), type and id must all be"
              + " non-empty");
    }
  }

  /**
   * Whether {@link #check} takes the address. A namespace is read as StateFun's SDKs read it, one
   * '/' ending it dropped (as {@link TypeName#of} drops it): "n/" is "n", "/" is empty, and "n//"
   * is refused as {@link TypeName#of} refuses it.
   */
  static boolean isComplete(String[] parts) {
    String namespace = namespace(parts[0]);
    return !namespace.isEmpty()
        && !namespace.endsWith("/")
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
   * Whether the handler runs an invocation once it reaches it, rather than refusing the request
   * there: told from the request's bytes, before any of its strings is decoded, as {@link
   * #isArgumentType}, {@link #checkArgumentSet} and {@link #isComplete} tell it from the strings.
   *
   * @param utf8 the request
   * @param typeStart where the argument's type name starts in it
   * @param typeLength its length in bytes
   * @param argumentSet whether the argument sets {@code has_value}
   * @param caller the caller's namespace, type and id as start and length each, or {@code null} for
   *     none
   */
  static boolean isRunnable(
      byte[] utf8, int typeStart, int typeLength, boolean argumentSet, int[] caller) {
    // '/' is one byte in UTF-8 and no byte of another character: where the last one is, and
    // whether a character comes before it and after it, are the same in bytes as in characters.
    int slash = lastSlash(utf8, typeStart, typeLength);
    return slash > typeStart
        && slash < typeStart + typeLength - 1
        && argumentSet
        && (caller == null
            || (isNamespace(utf8, caller[0], caller[1])
                && caller[3] > 0
                && caller[5] > 0
                && lastSlash(utf8, caller[2], caller[3]) < 0));
  }

  /**
   * Whether the {@code length} bytes at {@code start} are a namespace {@link #isComplete} takes.
   */
  private static boolean isNamespace(byte[] utf8, int start, int length) {
    int kept = length > 0 && utf8[start + length - 1] == '/' ? length - 1 : length;
    return kept > 0 && utf8[start + kept - 1] != '/';
  }

  /** Where the last '/' of the {@code length} bytes at {@code start} is, or -1 if none. */
  private static int lastSlash(byte[] utf8, int start, int length) {
    for (int i = start + length - 1; i >= start; i--) {
      if (utf8[i] == '/') {
        return i;
      }
    }
    return -1;
  }
}
