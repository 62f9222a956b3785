package dev.statekit.runtime;

/** The address-limit edges against Dynoxide and ElasticMQ. */
class LongAddressEdgesIT extends LongAddressEdgesContract implements OnRealServers {}
