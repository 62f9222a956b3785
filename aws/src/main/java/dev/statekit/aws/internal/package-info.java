/**
 * Tooling for StateKit's own tests and benchmarks: {@link dev.statekit.aws.internal.CostMeter}
 * counts the requests and capacity units of AWS calls. Public only so the benchmarks module and the
 * tests of other modules can use it; not part of the user API, and it may change in any release.
 */
package dev.statekit.aws.internal;
