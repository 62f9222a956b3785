package dev.statekit.types;

/**
 * A primitive in StateFun's wire encoding: immutable values, typename {@code io.statefun.types/*}.
 */
abstract class BuiltInType<T> implements Type<T> {
  static final byte[] EMPTY = new byte[0];

  private final TypeName typeName;

  BuiltInType(String name) {
    this.typeName = TypeName.of("io.statefun.types", name);
  }

  @Override
  public final TypeName typeName() {
    return typeName;
  }

  @Override
  public final boolean immutableValues() {
    return true;
  }

  @Override
  public String toString() {
    return typeName.toString();
  }
}
