package dev.statekit.runtime;

/** The failure-handling schedules on the in-memory adapters. */
class FailureHandlingTest extends FailureHandlingContract {}
