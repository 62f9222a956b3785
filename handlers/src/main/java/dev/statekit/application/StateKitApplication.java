package dev.statekit.application;

/**
 * Makes an application's {@link Application} declaration. Give it a public no-argument constructor
 * and name the class in {@code template.yaml} with {@value Application#VARIABLE}: the Lambda
 * handlers and the local runner both load it from there.
 */
@FunctionalInterface
public interface StateKitApplication {
  /** The declaration. */
  Application application();
}
