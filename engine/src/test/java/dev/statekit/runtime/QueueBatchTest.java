package dev.statekit.runtime;

class QueueBatchTest extends QueueBatchContract {}
