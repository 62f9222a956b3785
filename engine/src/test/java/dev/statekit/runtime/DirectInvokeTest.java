package dev.statekit.runtime;

class DirectInvokeTest extends DirectInvokeContract {}
