package dev.statekit.runtime;

/**
 * Addresses whose keys DynamoDB refuses, against Dynoxide (which refuses them as DynamoDB does).
 */
class LongAddressIT extends LongAddressContract implements OnRealServers {}
