/**
 * The {@code cold-start} suite: time from JVM start to the first completed invocation of the one
 * entry point, per payload kind, in fresh JVMs, beside a plain statefun-sdk-java handler.
 */
package dev.statekit.benchmarks.coldstart;
