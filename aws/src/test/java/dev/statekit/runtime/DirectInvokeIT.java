package dev.statekit.runtime;

class DirectInvokeIT extends DirectInvokeContract implements OnRealServers {}
