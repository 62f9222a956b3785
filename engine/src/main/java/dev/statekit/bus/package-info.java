/**
 * The queues the runtime sends to: the {@link dev.statekit.bus.MessageBus} port with an SQS adapter
 * and an in-memory FIFO queue.
 */
package dev.statekit.bus;
