/**
 * The example application {@code template.yaml} deploys, declared once in {@link
 * dev.statekit.examples.ExampleApp}: the greeter family, the shopping cart with inventory, and the
 * fraud check pipeline with its card-blocking function, with the local runner's demo as {@link
 * dev.statekit.examples.ExampleDemo}.
 */
package dev.statekit.examples;
