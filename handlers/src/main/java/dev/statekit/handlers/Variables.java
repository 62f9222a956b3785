package dev.statekit.handlers;

import dev.statekit.aws.AwsConfig;
import dev.statekit.entry.Lazy;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The environment variables a handler's wiring reads ({@code template.yaml} sets them), remembering
 * every name asked for, so tests and the local runner can check the template against the code.
 */
public final class Variables {
  private final Map<String, String> values;
  private final Set<String> required = Collections.synchronizedSet(new LinkedHashSet<>());
  private final Set<String> optional = Collections.synchronizedSet(new LinkedHashSet<>());

  private Variables(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  /** This process's environment. */
  public static Variables fromEnvironment() {
    return new Variables(System.getenv());
  }

  /** The given variables (tests, the local runner). */
  public static Variables of(Map<String, String> values) {
    return new Variables(Objects.requireNonNull(values, "values"));
  }

  /**
   * A variable that must be set.
   *
   * @param meaning what it names, for the message if it is missing
   * @throws IllegalStateException if it is not set
   */
  public String required(String name, String meaning) {
    required.add(name);
    String value = values.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          name
              + " is not set: it must name "
              + meaning
              + " (template.yaml sets it; docs/reference.md, the configuration reference, lists every"
              + " variable)");
    }
    return value;
  }

  /** A variable that may be set. */
  public Optional<String> optional(String name) {
    optional.add(name);
    String value = values.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  /** The SDK's configuration from these variables (region, endpoint overrides, credentials). */
  public AwsConfig aws() {
    return AwsConfig.fromVariables(awsView());
  }

  /**
   * {@link #aws()} built on its first {@code get()}: the variables are read and the endpoints
   * checked now (a malformed one fails here), the region and the credentials provider, which load
   * the SDK, only when a client is first built.
   *
   * @throws IllegalArgumentException if an endpoint variable is not an http(s) URL
   */
  public Lazy<AwsConfig> awsOnFirstUse() {
    Map<String, String> view = awsView();
    AwsConfig.check(view);
    return Lazy.of(() -> AwsConfig.fromVariables(view));
  }

  private Map<String, String> awsView() {
    return new AbstractMap<>() {
      @Override
      public String get(Object key) {
        return optional((String) key).orElse(null);
      }

      @Override
      public boolean containsKey(Object key) {
        return get(key) != null;
      }

      @Override
      public Set<Map.Entry<String, String>> entrySet() {
        return values.entrySet();
      }
    };
  }

  /** The names read with {@link #required}, in first-read order. */
  public Set<String> requiredNames() {
    synchronized (required) {
      return Set.copyOf(required);
    }
  }

  /** The names read with {@link #optional} (and by {@link #aws()}), in first-read order. */
  public Set<String> optionalNames() {
    synchronized (optional) {
      return Set.copyOf(optional);
    }
  }
}
