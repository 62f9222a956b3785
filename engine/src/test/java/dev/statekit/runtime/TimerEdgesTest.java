package dev.statekit.runtime;

class TimerEdgesTest extends TimerEdgesContract {}
