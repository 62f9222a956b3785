package dev.statekit.runtime;

/** The queue-size schedules on the in-memory adapters. */
class QueueSizesTest extends QueueSizesContract {}
