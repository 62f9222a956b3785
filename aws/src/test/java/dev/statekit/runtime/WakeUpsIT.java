package dev.statekit.runtime;

class WakeUpsIT extends WakeUpsContract implements OnRealServers {}
