package dev.statekit.runtime;

class QueueBatchIT extends QueueBatchContract implements OnRealServers {}
