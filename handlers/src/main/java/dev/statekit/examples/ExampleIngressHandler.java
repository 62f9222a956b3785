package dev.statekit.examples;

import dev.statekit.handlers.StateKitHandler;
import dev.statekit.handlers.Variables;

/**
 * The Lambda handler of {@code IngressFunction} in {@code template.yaml}: the examples' direct
 * invokes with ingress envelopes, and nothing else ({@link ExampleApp#ingressEntryPoint}).
 */
public final class ExampleIngressHandler extends StateKitHandler {
  /** Lambda's constructor: the wiring is built once per execution environment. */
  public ExampleIngressHandler() {
    this(Variables.fromEnvironment());
  }

  /** Wiring from {@code variables} (the local runner, the template test). */
  public ExampleIngressHandler(Variables variables) {
    super(ExampleApp.ingressEntryPoint(variables));
  }
}
