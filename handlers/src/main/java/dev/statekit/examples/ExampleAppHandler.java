package dev.statekit.examples;

import dev.statekit.entry.EntryPoint;
import dev.statekit.handlers.StateKitHandler;
import dev.statekit.handlers.Variables;

/** The Lambda handler {@code template.yaml} deploys: every example behind the one entry point. */
public final class ExampleAppHandler extends StateKitHandler {
  /** Lambda's constructor: the wiring is built once per execution environment. */
  public ExampleAppHandler() {
    this(Variables.fromEnvironment());
  }

  /** Wiring from {@code variables} (the local runner, the template test). */
  public ExampleAppHandler(Variables variables) {
    super(ExampleApp.entryPoint(variables));
  }

  /** For tests and the local runner: the given entry point. */
  public ExampleAppHandler(EntryPoint entryPoint) {
    super(entryPoint);
  }
}
