/**
 * Egress sinks: where the records functions send to egresses go (SQS, Kinesis, a DynamoDB table,
 * the log, a function address, memory), and {@link dev.statekit.egress.EgressRoutes}, which maps
 * each egress (StateFun Kafka and Kinesis records included) onto a sink.
 */
package dev.statekit.egress;
