/**
 * The function runtime's ports on DynamoDB: {@link dev.statekit.aws.dynamodb.DynamoDbFunctionStore}
 * (state, outboxes, timers and applied marks in the application table, item layout in the engine's
 * {@code runtime.store}) and {@link dev.statekit.aws.dynamodb.DynamoDbTableSink}, egress into a
 * table. The SDK's exceptions are translated here into StateKit's.
 */
package dev.statekit.aws.dynamodb;
