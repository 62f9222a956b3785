package dev.statekit.runtime;

/** The queue-size schedules against Dynoxide and ElasticMQ. */
class QueueSizesIT extends QueueSizesContract implements OnRealServers {}
