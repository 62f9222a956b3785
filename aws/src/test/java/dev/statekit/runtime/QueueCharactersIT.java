package dev.statekit.runtime;

/** The queue-character schedules against Dynoxide and ElasticMQ. */
class QueueCharactersIT extends QueueCharactersContract implements OnRealServers {}
