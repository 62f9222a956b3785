/**
 * The stateful functions example: {@code example/greeter} greets and counts, {@code example/audit}
 * totals what the greeter reports, {@code example/reminder} sends itself cancellable delayed
 * messages. {@link dev.statekit.examples.greeter.GreeterHandler} serves them on Lambda.
 */
package dev.statekit.examples.greeter;
