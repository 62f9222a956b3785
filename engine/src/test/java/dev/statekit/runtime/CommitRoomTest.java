package dev.statekit.runtime;

class CommitRoomTest extends CommitRoomContract {}
