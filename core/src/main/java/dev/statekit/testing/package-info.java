/**
 * Unit-testing support for stateful functions: {@link dev.statekit.testing.TestContext} records
 * every side effect of a function and keeps its state in memory.
 */
package dev.statekit.testing;
