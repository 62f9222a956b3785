/**
 * Real AWS-compatible servers for tests and for the local runner: Dynoxide (DynamoDB API),
 * ElasticMQ (SQS API) and kinesalite (Kinesis API), installed and started on first use, one per
 * JVM, or any endpoint named by {@code STATEKIT_DYNAMODB_ENDPOINT}, {@code STATEKIT_SQS_ENDPOINT}
 * and {@code STATEKIT_KINESIS_ENDPOINT}; LocalStack in Docker when the system property {@code
 * statekit.servers} is {@code localstack}.
 *
 * <p>Tests use {@link dev.statekit.testservers.RealServers}, a JUnit 5 extension that hands out
 * clients, a fresh table and a fresh FIFO queue per test class.
 */
package dev.statekit.testservers;
