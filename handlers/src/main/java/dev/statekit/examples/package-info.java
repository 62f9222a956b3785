/**
 * The example applications {@code template.yaml} deploys, all behind {@link
 * dev.statekit.examples.ExampleAppHandler}: the greeter family, the shopping cart with inventory,
 * and the fraud check pipeline with its card-blocking function.
 */
package dev.statekit.examples;
