package dev.statekit.runtime;

class CallReplyBoundsTest extends CallReplyBoundsContract {}
