package dev.statekit.types;

import java.util.Objects;

/**
 * The name of a function type, an egress or a value type: {@code namespace/name}.
 *
 * <p>Both parts are non-empty. The name holds no {@code /}; the namespace may (protobuf type names
 * are {@code type.googleapis.com/<full message name>}), so a string is split at its last {@code /}.
 * One {@code /} ending the namespace is dropped, as StateFun's SDKs drop it: {@code of("shop/",
 * "cart")} and {@code parse("shop//cart")} name {@code shop/cart}, so a function registered under
 * either serves the requests a StateFun runtime sends for the other. A namespace that still ends in
 * {@code /} after that ({@code "shop//"}) is refused: every type name reads back from its text
 * ({@link #asString()}) as itself, which the runtime counts on when it stores addresses as text.
 */
public final class TypeName {
  private final String namespace;
  private final String name;
  private final String canonical;

  private TypeName(String namespace, String name) {
    this.namespace = namespace;
    this.name = name;
    this.canonical = namespace + "/" + name;
  }

  /**
   * The type name {@code namespace/name}.
   *
   * @throws IllegalArgumentException if a part is empty (the namespace once one ending {@code /} is
   *     dropped), the namespace ends in two {@code /} or the name contains {@code /}
   */
  public static TypeName of(String namespace, String name) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    String written = namespace + "/" + name;
    namespace = withoutEndingSlash(namespace);
    refuseEndingSlash(namespace, written);
    if (namespace.isEmpty() || name.isEmpty()) {
      throw new IllegalArgumentException(
          "A type name needs a non-empty namespace and name, got '"
              + namespace
              + "/"
              + name
              + "'; write it like example/greeter");
    }
    if (name.indexOf('/') >= 0) {
      throw new IllegalArgumentException(
          "The name part of a type name holds no '/', got '"
              + name
              + "'; put the extra segments in the namespace");
    }
    return new TypeName(namespace, name);
  }

  /**
   * Parses {@code namespace/name}, splitting at the last {@code /}.
   *
   * @throws IllegalArgumentException if there is no {@code /}, a part is empty or the namespace
   *     ends in two {@code /}
   */
  public static TypeName parse(String typeName) {
    Objects.requireNonNull(typeName, "typeName");
    int slash = typeName.lastIndexOf('/');
    if (slash <= 0 || slash == typeName.length() - 1) {
      throw new IllegalArgumentException(
          "'"
              + typeName
              + "' is not a type name: expected namespace/name with both parts non-empty,"
              + " e.g. example/greeter");
    }
    String namespace = withoutEndingSlash(typeName.substring(0, slash));
    if (namespace.isEmpty()) {
      throw new IllegalArgumentException(
          "'"
              + typeName
              + "' is not a type name: its namespace is empty once the '/' ending it is dropped;"
              + " expected namespace/name, e.g. example/greeter");
    }
    refuseEndingSlash(namespace, typeName);
    return new TypeName(namespace, typeName.substring(slash + 1));
  }

  private static void refuseEndingSlash(String namespace, String written) {
    if (namespace.endsWith("/")) {
      throw new IllegalArgumentException(
          "'"
              + written
              + "' is not a type name: its namespace ends in two '/' (StateFun drops one, and a"
              + " namespace may not end in another); write it like example/greeter");
    }
  }

  /** {@code namespace} without one {@code /} ending it, as StateFun's SDKs read a namespace. */
  private static String withoutEndingSlash(String namespace) {
    return namespace.endsWith("/") ? namespace.substring(0, namespace.length() - 1) : namespace;
  }

  /** The part before the last {@code /}. */
  public String namespace() {
    return namespace;
  }

  /** The part after the last {@code /}. */
  public String name() {
    return name;
  }

  /** {@code namespace/name}, the form the wire protocol uses for value types. */
  public String asString() {
    return canonical;
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || (other instanceof TypeName && canonical.equals(((TypeName) other).canonical));
  }

  @Override
  public int hashCode() {
    return canonical.hashCode();
  }

  @Override
  public String toString() {
    return canonical;
  }
}
