package dev.statekit.function;

import dev.statekit.types.TypeName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A function type bound to its code and its declared values: {@code
 * StatefulFunctionSpec.builder(GREETER).withValueSpecs(SEEN).withFunction(new Greeter()).build()}.
 * Immutable; checked when built.
 */
public final class StatefulFunctionSpec {
  private final TypeName type;
  private final List<ValueSpec<?>> valueSpecs;
  private final StatefulFunction instance;
  private final Supplier<? extends StatefulFunction> supplier;

  private StatefulFunctionSpec(Builder builder) {
    this.type = builder.type;
    this.valueSpecs = Collections.unmodifiableList(new ArrayList<>(builder.valueSpecs.values()));
    this.instance = builder.instance;
    this.supplier = builder.supplier;
  }

  /** Starts the spec of the function type {@code type}. */
  public static Builder builder(TypeName type) {
    return new Builder(Objects.requireNonNull(type, "type"));
  }

  /** The function type. */
  public TypeName type() {
    return type;
  }

  /** The declared values, in declaration order. */
  public List<ValueSpec<?>> valueSpecs() {
    return valueSpecs;
  }

  /**
   * The function to run one batch of messages: the shared instance, or a fresh one from the
   * supplier.
   *
   * @throws IllegalStateException if the supplier returns null
   */
  public StatefulFunction newBatchFunction() {
    if (instance != null) {
      return instance;
    }
    StatefulFunction created = supplier.get();
    if (created == null) {
      throw new IllegalStateException("The supplier of function " + type + " returned null");
    }
    return created;
  }

  @Override
  public String toString() {
    return type + " " + valueSpecs;
  }

  /** Builds a {@link StatefulFunctionSpec}. */
  public static final class Builder {
    private final TypeName type;
    private final Map<String, ValueSpec<?>> valueSpecs = new LinkedHashMap<>();
    private StatefulFunction instance;
    private Supplier<? extends StatefulFunction> supplier;

    private Builder(TypeName type) {
      this.type = type;
    }

    /**
     * Declares a persisted value.
     *
     * @throws IllegalArgumentException if another declared value has the same name
     */
    public Builder withValueSpec(ValueSpec<?> spec) {
      Objects.requireNonNull(spec, "spec");
      if (valueSpecs.containsKey(spec.name())) {
        throw new IllegalArgumentException(
            "Function "
                + type
                + " declares the state name '"
                + spec.name()
                + "' twice; give each value spec its own name");
      }
      valueSpecs.put(spec.name(), spec);
      return this;
    }

    /** Declares persisted values; see {@link #withValueSpec}. */
    public Builder withValueSpecs(ValueSpec<?>... specs) {
      for (ValueSpec<?> spec : specs) {
        withValueSpec(spec);
      }
      return this;
    }

    /**
     * Binds one instance (or a lambda) that serves every address, concurrently: it must keep no
     * per-address data in fields.
     */
    public Builder withFunction(StatefulFunction function) {
      this.instance = Objects.requireNonNull(function, "function");
      this.supplier = null;
      return this;
    }

    /** Binds a supplier called once per batch of messages, for functions that keep fields. */
    public Builder withSupplier(Supplier<? extends StatefulFunction> supplier) {
      this.supplier = Objects.requireNonNull(supplier, "supplier");
      this.instance = null;
      return this;
    }

    /**
     * The spec.
     *
     * @throws IllegalStateException if no function or supplier was bound
     */
    public StatefulFunctionSpec build() {
      if (instance == null && supplier == null) {
        throw new IllegalStateException(
            "Function "
                + type
                + " has no code: call withFunction(...) or withSupplier(...) before build()");
      }
      return new StatefulFunctionSpec(this);
    }
  }
}
