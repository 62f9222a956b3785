package dev.statekit.runtime;

class DelayedMessagesTest extends DelayedMessagesContract {}
