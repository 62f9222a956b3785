/**
 * Egress to Kinesis: {@link dev.statekit.aws.kinesis.KinesisEgressSink}. The SDK's exceptions are
 * translated here into StateKit's.
 */
package dev.statekit.aws.kinesis;
