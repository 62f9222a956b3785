/**
 * The queue plumbing below the runtime and the egress sinks: the {@link
 * dev.statekit.bus.MessageBus} port with its in-memory FIFO queue and an in-memory standard queue
 * with per-message delays (the wake-ups of delayed messages; the SQS adapter, FIFO or standard, is
 * {@code dev.statekit.aws.sqs.SqsMessageBus} in statekit-aws), the messages a queue hands over
 * ({@link dev.statekit.bus.QueueMessage}), SQS's group and deduplication ids ({@link
 * dev.statekit.bus.QueueIds}), and the JSON ingress envelope every producer writes ({@link
 * dev.statekit.bus.EnvelopeCodec}, refused as {@link dev.statekit.bus.InvalidEnvelopeException}).
 */
package dev.statekit.bus;
