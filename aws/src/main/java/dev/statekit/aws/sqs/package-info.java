/**
 * The message bus and the egress sink on SQS: {@link dev.statekit.aws.sqs.SqsMessageBus} (FIFO
 * queues, one group per address) and {@link dev.statekit.aws.sqs.SqsEgressSink}. The SDK's
 * exceptions are translated here into StateKit's.
 */
package dev.statekit.aws.sqs;
