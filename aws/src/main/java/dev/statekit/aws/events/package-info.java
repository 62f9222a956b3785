/**
 * Lambda event JSON written from the SDK's SQS messages and Kinesis records ({@link
 * dev.statekit.aws.events.EventWriter}), for whatever plays an event source mapping's part off
 * Lambda (the local runner's pollers).
 */
package dev.statekit.aws.events;
