package dev.statekit.runtime;

class CommitRoundFaultsTest extends CommitRoundFaultsContract {}
