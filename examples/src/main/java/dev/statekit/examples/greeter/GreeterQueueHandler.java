package dev.statekit.examples.greeter;

import dev.statekit.handlers.FunctionQueueHandler;
import dev.statekit.runtime.FunctionRuntime;

/**
 * The example functions' ingress queue handler on StateKit's own runtime, for a deployment with one
 * function per source ({@code template.yaml} deploys the one entry point instead).
 */
public final class GreeterQueueHandler extends FunctionQueueHandler {
  /** Lambda's constructor: the runtime is built once per execution environment. */
  public GreeterQueueHandler() {
    super(GreeterRuntime.fromEnvironment());
  }

  /** For tests: the given runtime. */
  public GreeterQueueHandler(FunctionRuntime runtime) {
    super(runtime);
  }
}
