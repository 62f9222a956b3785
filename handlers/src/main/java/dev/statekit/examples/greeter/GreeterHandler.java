package dev.statekit.examples.greeter;

import dev.statekit.handlers.StatefulFunctionsHandler;

/**
 * The Lambda handler {@code template.yaml} deploys behind a Function URL: serves the example
 * functions to a StateFun runtime.
 */
public final class GreeterHandler extends StatefulFunctionsHandler {
  /** Lambda's constructor: the registry is built once per execution environment. */
  public GreeterHandler() {
    super(ExampleFunctions.registry());
  }
}
