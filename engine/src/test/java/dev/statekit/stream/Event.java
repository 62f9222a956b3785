package dev.statekit.stream;

/** A test value: a key, an event time and a number. */
record Event(String key, long time, long value) {}
