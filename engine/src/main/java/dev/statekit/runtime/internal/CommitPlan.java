package dev.statekit.runtime.internal;

/**
 * A run the runtime accepts, with the state to commit after it.
 *
 * @param plan the run
 * @param next the state to commit, {@code null} if the run changed nothing
 */
record CommitPlan(RunResult plan, NextState next) {}
