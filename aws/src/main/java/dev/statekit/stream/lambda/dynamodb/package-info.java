/**
 * The Lambda batch engine's store on DynamoDB: {@link
 * dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore} keeps each key's state, each split's
 * position and the timer index in the application table (item layout in the README's "Stream
 * pipelines" section).
 */
package dev.statekit.stream.lambda.dynamodb;
