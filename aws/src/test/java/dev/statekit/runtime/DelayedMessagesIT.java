package dev.statekit.runtime;

class DelayedMessagesIT extends DelayedMessagesContract implements OnRealServers {}
