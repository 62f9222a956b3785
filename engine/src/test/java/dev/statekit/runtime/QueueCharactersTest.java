package dev.statekit.runtime;

/** The queue-character schedules on the in-memory adapters. */
class QueueCharactersTest extends QueueCharactersContract {}
