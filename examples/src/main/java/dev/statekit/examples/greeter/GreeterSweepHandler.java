package dev.statekit.examples.greeter;

import dev.statekit.handlers.TimerSweepHandler;
import dev.statekit.runtime.FunctionRuntime;

/**
 * The example functions' scheduled timer sweep on StateKit's own runtime, for a deployment with one
 * function per source ({@code template.yaml} deploys the one entry point instead).
 */
public final class GreeterSweepHandler extends TimerSweepHandler {
  /** Lambda's constructor: the runtime is built once per execution environment. */
  public GreeterSweepHandler() {
    super(GreeterRuntime.fromEnvironment());
  }

  /** For tests: the given runtime. */
  public GreeterSweepHandler(FunctionRuntime runtime) {
    super(runtime);
  }
}
