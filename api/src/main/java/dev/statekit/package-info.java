/**
 * What every part of StateKit shares: {@link dev.statekit.StateKitException}, the one exception
 * vocabulary of its adapters (unavailable, conflict, invalid request), and {@link
 * dev.statekit.Deadline}, the time an invocation has left.
 */
package dev.statekit;
