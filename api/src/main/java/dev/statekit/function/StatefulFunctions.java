package dev.statekit.function;

import dev.statekit.types.TypeName;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The registry of an application's functions, immutable once built:
 *
 * <pre>{@code
 * StatefulFunctions functions = StatefulFunctions.builder()
 *     .withFunction(GREETER, new Greeter(), SEEN)
 *     .withFunction(AUDIT, (context, message) -> ..., TOTAL)
 *     .build();
 * }</pre>
 *
 * The protocol handler, the HTTP endpoint and the Lambda handlers all serve a registry.
 */
public final class StatefulFunctions {
  private final Map<TypeName, StatefulFunctionSpec> specs;

  private StatefulFunctions(Map<TypeName, StatefulFunctionSpec> specs) {
    this.specs = Collections.unmodifiableMap(new LinkedHashMap<>(specs));
  }

  /** Starts an empty registry. */
  public static Builder builder() {
    return new Builder();
  }

  /** The spec registered for {@code type}, if any. */
  public Optional<StatefulFunctionSpec> get(TypeName type) {
    return Optional.ofNullable(specs.get(type));
  }

  /** The registered function types, in registration order. */
  public Set<TypeName> types() {
    return specs.keySet();
  }

  @Override
  public String toString() {
    return "StatefulFunctions" + specs.keySet();
  }

  /** Builds {@link StatefulFunctions}. */
  public static final class Builder {
    private final Map<TypeName, StatefulFunctionSpec> specs = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Registers a function.
     *
     * @throws IllegalArgumentException if its type is already registered
     */
    public Builder withFunction(StatefulFunctionSpec spec) {
      Objects.requireNonNull(spec, "spec");
      if (specs.containsKey(spec.type())) {
        throw new IllegalArgumentException(
            "Function type "
                + spec.type()
                + " is registered twice; each function type is bound to one function");
      }
      specs.put(spec.type(), spec);
      return this;
    }

    /**
     * Registers a function instance or lambda with its declared values, shared by every address
     * (like a function pointer).
     *
     * @throws IllegalArgumentException if the type is already registered or two values share a name
     */
    public Builder withFunction(
        TypeName type, StatefulFunction function, ValueSpec<?>... valueSpecs) {
      return withFunction(
          StatefulFunctionSpec.builder(type)
              .withValueSpecs(valueSpecs)
              .withFunction(function)
              .build());
    }

    /**
     * The registry.
     *
     * @throws IllegalStateException if no function was registered
     */
    public StatefulFunctions build() {
      if (specs.isEmpty()) {
        throw new IllegalStateException(
            "The registry has no function: register at least one with withFunction(...)");
      }
      return new StatefulFunctions(specs);
    }
  }
}
