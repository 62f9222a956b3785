package dev.statekit.examples.greeter;

import dev.statekit.handlers.StatefulFunctionsHandler;

/**
 * The example functions served to a StateFun runtime by a function of their own (behind a Function
 * URL, or invoked directly); {@code template.yaml} serves them through the one entry point instead.
 */
public final class GreeterHandler extends StatefulFunctionsHandler {
  /** Lambda's constructor: the registry is built once per execution environment. */
  public GreeterHandler() {
    super(ExampleFunctions.registry());
  }
}
