/**
 * Unit-testing support: {@link dev.statekit.testing.TestContext} records every side effect of a
 * stateful function and keeps its state in memory; {@link dev.statekit.testing.ManualClock} is a
 * clock the test moves, for delayed messages, expiring state and pipeline ticks.
 */
package dev.statekit.testing;
