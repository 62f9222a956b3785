package dev.statekit.runtime;

class ExpiryIT extends ExpiryContract implements OnRealServers {}
