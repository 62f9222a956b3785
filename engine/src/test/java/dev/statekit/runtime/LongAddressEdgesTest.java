package dev.statekit.runtime;

/** The address-limit edges on the in-memory adapters. */
class LongAddressEdgesTest extends LongAddressEdgesContract {}
