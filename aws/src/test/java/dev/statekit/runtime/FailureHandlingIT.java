package dev.statekit.runtime;

/** The failure-handling schedules against Dynoxide and ElasticMQ. */
class FailureHandlingIT extends FailureHandlingContract implements OnRealServers {}
