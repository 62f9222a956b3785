package dev.statekit.runtime;

class ExpiryTest extends ExpiryContract {}
