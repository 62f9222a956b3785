package dev.statekit.runtime;

class WakeUpsTest extends WakeUpsContract {}
