/**
 * The threaded engine's keyed state and checkpoints in the application's DynamoDB table ({@link
 * dev.statekit.stream.state.dynamodb.DynamoDbStateTable}, {@link
 * dev.statekit.stream.state.dynamodb.DynamoDbCheckpointStore}; item layout in the README's "Stream
 * pipelines" section), and the batched reads and writes the DynamoDB stores share.
 */
package dev.statekit.stream.state.dynamodb;
