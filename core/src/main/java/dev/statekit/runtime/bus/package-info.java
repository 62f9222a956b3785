/**
 * The queues the runtime sends to: the {@link dev.statekit.runtime.bus.MessageBus} port with an SQS
 * adapter (FIFO or standard), an in-memory FIFO queue and an in-memory standard queue with
 * per-message delays (the wake-ups of delayed messages).
 */
package dev.statekit.runtime.bus;
