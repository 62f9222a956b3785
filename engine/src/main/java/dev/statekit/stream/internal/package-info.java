/**
 * The operator engine: planner, running operators, tasks, exchanges and checkpoint coordination.
 * Not an API: types here are public only for use across the kit's own packages.
 */
package dev.statekit.stream.internal;
