package dev.statekit.examples.greeter;

import dev.statekit.handlers.FunctionInvokeHandler;
import dev.statekit.runtime.FunctionRuntime;

/**
 * The example functions' direct-invoke handler on StateKit's own runtime, for a deployment with one
 * function per source ({@code template.yaml} deploys the one entry point instead).
 */
public final class GreeterInvokeHandler extends FunctionInvokeHandler {
  /** Lambda's constructor: the runtime is built once per execution environment. */
  public GreeterInvokeHandler() {
    super(GreeterRuntime.fromEnvironment());
  }

  /** For tests: the given runtime. */
  public GreeterInvokeHandler(FunctionRuntime runtime) {
    super(runtime);
  }
}
