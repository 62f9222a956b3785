package dev.statekit.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.entry.EntryPoint;
import dev.statekit.entry.InvocationError;
import dev.statekit.telemetry.EmfMetricsSink;
import dev.statekit.telemetry.MetricsSink;
import dev.statekit.telemetry.Telemetry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.crac.Core;
import org.crac.Resource;

/**
 * The one Lambda handler of a StateKit application: every payload (a StateFun {@code ToFunction}, a
 * Function URL event, ingress envelopes, SQS, Kinesis and DynamoDB Streams batches, the scheduled
 * tick) goes to {@link EntryPoint#invoke(byte[], dev.statekit.Deadline)} with the time the
 * invocation has left, and its answer is written back as it is. A failure reaches Lambda as an
 * {@link InvocationError}: what was wrong with a refused payload, or an error id whose details are
 * in the function's log (Lambda shows a thrown exception's type, message and stack trace to the
 * caller).
 *
 * <p>Each invocation runs in a {@link Telemetry} context: its log lines carry Lambda's request id
 * and the trace id (the root of Lambda's X-Ray trace header when there is one), and the metrics it
 * records are written in CloudWatch's Embedded Metric Format when it ends ({@link
 * EmfMetricsSink#fromEnvironment}).
 *
 * <p>Subclass it with a public no-argument constructor that builds the entry point (as {@link
 * ApplicationHandler} does from an application's declaration); Lambda constructs the handler once
 * per execution environment. Without SnapStart every scale-out pays the constructor and the first
 * payload: read the configuration there, and build what only some payloads need (SDK clients, the
 * runtime, pipelines) with the first payload that needs it ({@link dev.statekit.entry.Lazy}). With
 * SnapStart the constructor and {@link #beforeCheckpoint} run before the snapshot: a primer
 * registered on the entry point builds everything then (the SDK opens no connection until the first
 * request) and primes every payload path without calling AWS or running a function.
 */
public class StateKitHandler implements RequestStreamHandler, Resource {
  /** The system property Lambda's Java runtime sets to each invocation's X-Ray trace header. */
  static final String TRACE_HEADER_PROPERTY = "com.amazonaws.xray.traceHeader";

  private final EntryPoint entryPoint;
  private final MetricsSink metrics;

  /**
   * Answers through {@code entryPoint}, its metrics as the environment says ({@link
   * EmfMetricsSink#fromEnvironment}), and registers for SnapStart's checkpoint hooks.
   */
  public StateKitHandler(EntryPoint entryPoint) {
    this(entryPoint, EmfMetricsSink.fromEnvironment(System.getenv()));
  }

  /**
   * Answers through {@code entryPoint}, its metrics as {@code variables} say: EMF on Lambda unless
   * {@code STATEKIT_METRICS=off}, in the namespace {@code STATEKIT_METRICS_NAMESPACE} (default
   * {@code StateKit}) with the dimension {@code Application} = {@code STATEKIT_METRICS_APPLICATION}
   * (default: the function's name).
   */
  public StateKitHandler(EntryPoint entryPoint, Variables variables) {
    this(entryPoint, metricsFrom(variables));
  }

  static MetricsSink metricsFrom(Variables variables) {
    java.util.Map<String, String> read = new java.util.HashMap<>();
    for (String name :
        java.util.List.of(
            EmfMetricsSink.METRICS_VARIABLE,
            EmfMetricsSink.NAMESPACE_VARIABLE,
            EmfMetricsSink.APPLICATION_VARIABLE,
            "AWS_LAMBDA_FUNCTION_NAME")) {
      variables.optional(name).ifPresent(value -> read.put(name, value));
    }
    return EmfMetricsSink.fromEnvironment(read);
  }

  /** Answers through {@code entryPoint}, each invocation's metrics to {@code metrics}. */
  public StateKitHandler(EntryPoint entryPoint, MetricsSink metrics) {
    this.entryPoint = Objects.requireNonNull(entryPoint, "entryPoint");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    Core.getGlobalContext().register(this);
  }

  /** The entry point this handler answers through. */
  public EntryPoint entryPoint() {
    return entryPoint;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    byte[] answer;
    // Every log line of the invocation carries its request id and trace id; its metrics go out as
    // one EMF document (per pipeline) when it ends.
    try (Telemetry.Scope scope =
        Telemetry.invocation(
            context == null ? null : context.getAwsRequestId(), traceHeader(), metrics)) {
      try {
        answer = entryPoint.invoke(input.readAllBytes(), Deadlines.of(context));
      } catch (RuntimeException | StackOverflowError e) {
        throw InvocationError.of(e);
      }
    }
    output.write(answer);
  }

  private static String traceHeader() {
    String header = System.getProperty(TRACE_HEADER_PROPERTY);
    return header != null ? header : System.getenv("_X_AMZN_TRACE_ID");
  }

  /** SnapStart is about to snapshot this environment: load what every payload path needs. */
  @Override
  public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
    entryPoint.prime();
    // The invocation context and the EMF writer, loaded before the snapshot; nothing is written.
    EmfMetricsSink discard = new EmfMetricsSink("StateKit", "priming", line -> {});
    try (Telemetry.Scope scope = Telemetry.invocation("priming", null, discard)) {
      dev.statekit.telemetry.Metrics.add(dev.statekit.telemetry.Metric.MESSAGES_APPLIED, 0);
    }
  }

  /** Nothing to reopen: no connection was opened before the snapshot. */
  @Override
  public void afterRestore(org.crac.Context<? extends Resource> context) {}
}
