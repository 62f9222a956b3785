package dev.statekit.runtime.internal;

/**
 * A run with the commit it needs.
 *
 * @param plan the run
 * @param next the state to commit, {@code null} if the run changed nothing
 */
record Prepared(RunPlan plan, NextState next) {}
