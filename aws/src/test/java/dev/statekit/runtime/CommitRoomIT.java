package dev.statekit.runtime;

/**
 * Messages that fit one commit each but not together, against Dynoxide and ElasticMQ: DynamoDB's
 * item size and transaction limits are what one commit holds there.
 */
class CommitRoomIT extends CommitRoomContract implements OnRealServers {}
