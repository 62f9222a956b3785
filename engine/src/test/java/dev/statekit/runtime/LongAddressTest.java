package dev.statekit.runtime;

class LongAddressTest extends LongAddressContract {}
