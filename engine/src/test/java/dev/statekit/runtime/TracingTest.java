package dev.statekit.runtime;

class TracingTest extends TracingContract {}
