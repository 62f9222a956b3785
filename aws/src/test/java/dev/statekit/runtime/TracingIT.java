package dev.statekit.runtime;

class TracingIT extends TracingContract implements OnRealServers {}
