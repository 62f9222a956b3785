package dev.statekit.runtime;

class CommitRoundsTest extends CommitRoundsContract {}
