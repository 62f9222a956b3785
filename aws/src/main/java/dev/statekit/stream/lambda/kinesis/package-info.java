/**
 * A Kinesis stream's shards for the Lambda batch engine: {@link
 * dev.statekit.stream.lambda.kinesis.KinesisShards} registers every shard of the stream with a
 * {@code BatchPipeline}, so a shard that has sent nothing yet still holds its windows back.
 */
package dev.statekit.stream.lambda.kinesis;
