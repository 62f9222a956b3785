package dev.statekit.handlers;

import dev.statekit.application.Application;
import dev.statekit.runtime.InvocationObserver;

/**
 * The Lambda handler producers invoke directly: ingress envelopes to the runtime of the {@link
 * Application} that {@code STATEKIT_APPLICATION} names, and nothing else ({@link
 * Application#ingressEntryPoint}): an event-source event or a StateFun request sent here is
 * refused.
 */
public class ApplicationIngressHandler extends StateKitHandler {
  private final Application application;

  /** Lambda's constructor: the declaration and its wiring from the environment, once. */
  public ApplicationIngressHandler() {
    this(Variables.fromEnvironment());
  }

  /** The declaration {@code variables} name, wired from them (the local runner, tests). */
  public ApplicationIngressHandler(Variables variables) {
    this(Application.fromVariables(variables), variables);
  }

  /**
   * The declaration {@code variables} name, wired from them, each invocation shown to {@code
   * observer} (the local runner's console).
   */
  public ApplicationIngressHandler(Variables variables, InvocationObserver observer) {
    this(Application.fromVariables(variables), variables, observer);
  }

  private ApplicationIngressHandler(
      Application application, Variables variables, InvocationObserver observer) {
    super(application.ingressEntryPoint(variables, observer), variables);
    this.application = application;
  }

  /** A given declaration, wired from {@code variables}. */
  public ApplicationIngressHandler(Application application, Variables variables) {
    super(application.ingressEntryPoint(variables), variables);
    this.application = application;
  }

  /** The declaration this handler wires. */
  public Application application() {
    return application;
  }
}
