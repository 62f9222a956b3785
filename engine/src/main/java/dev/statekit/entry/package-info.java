/**
 * The one entry point: {@link dev.statekit.entry.EntryPoint#invoke(byte[])} recognises every
 * payload StateKit accepts (a StateFun {@code ToFunction}, a Function URL or API Gateway HTTP
 * event, the JSON ingress envelope, SQS, Kinesis and DynamoDB Streams events, the EventBridge
 * scheduled event) and routes it to what the application registered for it, answering in the shape
 * the caller expects. No Lambda types: the Lambda handler in {@code dev.statekit.handlers} only
 * moves bytes.
 */
package dev.statekit.entry;
