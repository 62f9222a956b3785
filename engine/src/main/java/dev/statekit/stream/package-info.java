/**
 * Stream pipelines: records, sources and sinks, serializers, and the typed API that builds a
 * pipeline ({@link dev.statekit.stream.Pipeline#from}) from operators (map, filter, flatMap,
 * process, keyBy, reduce, windows) and runs it with checkpoints ({@link
 * dev.statekit.stream.RunOptions}).
 */
package dev.statekit.stream;
