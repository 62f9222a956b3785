package dev.statekit.handlers;

import dev.statekit.application.Application;
import dev.statekit.runtime.InvocationObserver;

/**
 * The Lambda handler of an application's event sources: the ingress queue's batches, each
 * pipeline's stream, the schedule and the StateFun requests of the function URL, wired from the
 * {@link Application} that {@code STATEKIT_APPLICATION} names ({@link Application#entryPoint}).
 * {@code template.yaml} names it as {@code
 * dev.statekit.handlers.ApplicationHandler::handleRequest}.
 */
public class ApplicationHandler extends StateKitHandler {
  private final Application application;

  /** Lambda's constructor: the declaration and its wiring from the environment, once. */
  public ApplicationHandler() {
    this(Variables.fromEnvironment());
  }

  /** The declaration {@code variables} name, wired from them (the local runner, tests). */
  public ApplicationHandler(Variables variables) {
    this(Application.fromVariables(variables), variables);
  }

  /**
   * The declaration {@code variables} name, wired from them, each invocation its runtime runs shown
   * to {@code observer} (the local runner's console).
   */
  public ApplicationHandler(Variables variables, InvocationObserver observer) {
    this(Application.fromVariables(variables), variables, observer);
  }

  private ApplicationHandler(
      Application application, Variables variables, InvocationObserver observer) {
    super(application.entryPoint(variables, observer), variables);
    this.application = application;
  }

  /** A given declaration, wired from {@code variables}. */
  public ApplicationHandler(Application application, Variables variables) {
    super(application.entryPoint(variables), variables);
    this.application = application;
  }

  /**
   * A given declaration, wired from {@code variables}, each invocation's metrics to {@code metrics}
   * (a local tool's charts, a test).
   */
  public ApplicationHandler(
      Application application, Variables variables, dev.statekit.telemetry.MetricsSink metrics) {
    super(application.entryPoint(variables), metrics);
    this.application = application;
  }

  /** The declaration this handler wires. */
  public Application application() {
    return application;
  }
}
