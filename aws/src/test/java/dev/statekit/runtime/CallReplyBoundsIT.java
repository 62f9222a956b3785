package dev.statekit.runtime;

class CallReplyBoundsIT extends CallReplyBoundsContract implements OnRealServers {}
