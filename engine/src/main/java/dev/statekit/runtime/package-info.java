/**
 * StateKit running its own functions on Lambda, with no Flink cluster: {@link
 * dev.statekit.runtime.FunctionRuntime} keeps state in DynamoDB, carries messages between functions
 * over an SQS FIFO queue, fires delayed messages from durable timers and delivers egress records to
 * sinks, each message's effects exactly once. {@link dev.statekit.runtime.Ingress} tells producers
 * how to address it.
 */
package dev.statekit.runtime;
