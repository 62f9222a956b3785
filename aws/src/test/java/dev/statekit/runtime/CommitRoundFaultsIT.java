package dev.statekit.runtime;

/** {@link CommitRoundFaultsContract} against Dynoxide and ElasticMQ. */
class CommitRoundFaultsIT extends CommitRoundFaultsContract implements OnRealServers {}
