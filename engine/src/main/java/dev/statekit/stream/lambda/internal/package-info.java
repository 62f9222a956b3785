/**
 * The batch engine behind {@code dev.statekit.stream.lambda.BatchPipeline}: each Lambda batch runs
 * through the operator core and ends in a checkpoint of its keys, its split and the timer index.
 * Not an API.
 */
package dev.statekit.stream.lambda.internal;
