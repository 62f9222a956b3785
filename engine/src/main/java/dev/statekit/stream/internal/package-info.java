/**
 * The operator core both stream engines share: the planner, the operator specs and the running
 * operators (windows, reduce, process, timers), and the plan of a pipeline. The in-process threaded
 * engine is in {@code stream.internal.threaded}, the Lambda batch engine in {@code
 * stream.lambda.internal}. Not an API: types here are public only for use across the stream
 * packages.
 */
package dev.statekit.stream.internal;
