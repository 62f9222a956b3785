package dev.statekit.runtime;

class CallTest extends CallContract {}
