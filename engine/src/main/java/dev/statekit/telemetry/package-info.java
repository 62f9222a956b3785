/**
 * What a team running StateKit sees: {@link dev.statekit.telemetry.Log}, one-line log records (JSON
 * on Lambda, text locally) carrying the request id, the trace id and the subject from the {@link
 * dev.statekit.telemetry.Telemetry} context; {@link dev.statekit.telemetry.Metrics}, recorded per
 * invocation and published when it ends through a {@link dev.statekit.telemetry.MetricsSink}
 * ({@link dev.statekit.telemetry.EmfMetricsSink} on Lambda); and {@link
 * dev.statekit.telemetry.TraceIds}, the ids that follow a request across functions. No logging or
 * metrics framework is loaded: cold starts pay for none.
 */
package dev.statekit.telemetry;
