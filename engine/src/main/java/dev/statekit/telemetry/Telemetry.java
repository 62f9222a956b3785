package dev.statekit.telemetry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * What the code running for one invocation knows about it: its request id and trace id, the subject
 * at hand (an address, a pipeline, a split, a batch) and the metrics it records. Every log record
 * carries these fields; {@link Metrics} records into the invocation's metrics, which go to its
 * {@link MetricsSink} when its {@link Scope} closes (one report per invocation, not per message).
 *
 * <p>The context belongs to the thread that opened it; {@link #carry(Callable)} takes it to the
 * threads a batch fans out to (StateKit's own parallel calls do).
 */
public final class Telemetry {
  /** The request id's field, named as Lambda's JSON log format names it. */
  public static final String REQUEST_ID = "AWSRequestId";

  /** The trace id's field. */
  public static final String TRACE_ID = "traceId";

  /** The address a record is about ({@code namespace/type/id}). */
  public static final String ADDRESS = "address";

  /** The pipeline a record is about. */
  public static final String PIPELINE = "pipeline";

  /** The split (shard, queue) of the batch a record is about. */
  public static final String SPLIT = "split";

  /** The batch a record is about: its first record's position in its split. */
  public static final String BATCH = "batch";

  private static final ThreadLocal<Context> CURRENT = new ThreadLocal<>();

  private Telemetry() {}

  /** One thread's view: fields, and the invocation's metrics and trace id. */
  private record Context(
      Map<String, String> fields, InvocationMetrics metrics, String invocationTraceId) {}

  /**
   * Opens the context of one invocation on this thread, until the scope closes.
   *
   * @param requestId the invocation's request id (Lambda's), or {@code null}
   * @param traceHeader the caller's X-Ray trace header, or {@code null}: its root becomes the
   *     invocation's trace id; without one a new id is made
   * @param sink where the invocation's metrics go when it ends
   */
  public static Scope invocation(String requestId, String traceHeader, MetricsSink sink) {
    Objects.requireNonNull(sink, "sink");
    String trace = TraceIds.fromXRayHeader(traceHeader);
    if (trace == null) {
      trace = requestId == null ? TraceIds.newId() : TraceIds.derivedFrom(requestId);
    }
    Map<String, String> fields = new LinkedHashMap<>();
    if (requestId != null) {
      fields.put(REQUEST_ID, requestId);
    }
    // Until a message's own trace id takes its place, a line names the invocation's.
    fields.put(TRACE_ID, trace);
    Context previous = CURRENT.get();
    Context context = new Context(fields, new InvocationMetrics(), trace);
    CURRENT.set(context);
    return new Scope(previous, context, requestId, sink);
  }

  /**
   * Sets {@code field} to {@code value} (or removes it when {@code value} is null) in this thread's
   * context until the returned handle closes, which puts back what was there. Without an open
   * invocation it opens a context of its own for the fields (no metrics are kept then).
   */
  public static Restore with(String field, String value) {
    Objects.requireNonNull(field, "field");
    Context previous = CURRENT.get();
    Map<String, String> fields =
        new LinkedHashMap<>(previous == null ? Map.of() : previous.fields());
    if (value == null) {
      fields.remove(field);
    } else {
      fields.put(field, value);
    }
    CURRENT.set(
        new Context(
            fields,
            previous == null ? null : previous.metrics(),
            previous == null ? null : previous.invocationTraceId()));
    return () -> restore(previous);
  }

  /** The fields of this thread's context, in the order they were set (empty outside one). */
  public static Map<String, String> fields() {
    Context context = CURRENT.get();
    return context == null ? Map.of() : Collections.unmodifiableMap(context.fields());
  }

  /**
   * The trace id of what runs now: the message's being applied, else the invocation's; {@code null}
   * outside any invocation.
   */
  public static String traceId() {
    Context context = CURRENT.get();
    if (context == null) {
      return null;
    }
    String message = context.fields().get(TRACE_ID);
    return message != null ? message : context.invocationTraceId();
  }

  /**
   * The invocation's trace id (the caller's X-Ray root, or one made for it), given to what enters
   * without one of its own; {@code null} outside any invocation.
   */
  public static String invocationTraceId() {
    Context context = CURRENT.get();
    return context == null ? null : context.invocationTraceId();
  }

  /** {@code call}, run in this thread's context whichever thread runs it. */
  public static <T> Callable<T> carry(Callable<T> call) {
    Context context = CURRENT.get();
    if (context == null) {
      return call;
    }
    return () -> {
      Context previous = CURRENT.get();
      CURRENT.set(context);
      try {
        return call.call();
      } finally {
        restore(previous);
      }
    };
  }

  static void record(Metric metric, String pipeline, double value) {
    Context context = CURRENT.get();
    if (context != null && context.metrics() != null) {
      context.metrics().add(metric, pipeline, value);
    }
  }

  private static void restore(Context previous) {
    if (previous == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(previous);
    }
  }

  /** Puts back a field's previous value. */
  @FunctionalInterface
  public interface Restore extends AutoCloseable {
    @Override
    void close();
  }

  /** One invocation's context; closing it publishes its metrics and ends the context. */
  public static final class Scope implements AutoCloseable {
    private final Context previous;
    private final Context context;
    private final String requestId;
    private final MetricsSink sink;
    private boolean closed;

    private Scope(Context previous, Context context, String requestId, MetricsSink sink) {
      this.previous = previous;
      this.context = context;
      this.requestId = requestId;
      this.sink = sink;
    }

    /** The invocation's trace id. */
    public String traceId() {
      return context.invocationTraceId();
    }

    /** The metrics recorded so far. */
    public MetricsReport report() {
      return new MetricsReport(
          System.currentTimeMillis(),
          requestId,
          context.invocationTraceId(),
          context.metrics().series());
    }

    /**
     * Publishes the invocation's metrics (if it recorded any) and puts back the context that was
     * open before. A sink that fails is logged, never thrown: metrics never fail an invocation.
     */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        if (!context.metrics().isEmpty()) {
          sink.publish(report());
        }
      } catch (RuntimeException e) {
        Log.named("dev.statekit.telemetry").warn("The metrics could not be published", e);
      } finally {
        restore(previous);
      }
    }
  }
}
