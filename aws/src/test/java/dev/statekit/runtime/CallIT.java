package dev.statekit.runtime;

class CallIT extends CallContract implements OnRealServers {}
