/**
 * Pipeline state and checkpoints in the application's DynamoDB table (item layout in the README's
 * "Stream pipelines" section).
 */
package dev.statekit.stream.state.dynamodb;
