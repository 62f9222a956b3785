/**
 * Lambda's event sources, emulated on one machine: SQS queues polled into batches as the event
 * source mapping does (batch size, batching window, partial batch failures, visibility timeout,
 * redrive), Kinesis shards read into batches retried from the first failed record, schedules fired
 * at their rate.
 */
package dev.statekit.local.emulation;
