package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.Record;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.internal.KeyBySpec;
import dev.statekit.stream.internal.KeyCheck;
import dev.statekit.stream.internal.OperatorSpec;
import dev.statekit.stream.internal.PipelinePlans;
import dev.statekit.stream.internal.Plan;
import dev.statekit.stream.internal.WatermarkSpec;
import dev.statekit.stream.internal.WindowSpec;
import dev.statekit.stream.serde.Serde;

/**
 * What a batch run needs to know of a pipeline's plan, checked when the pipeline is built: at most
 * one keyed stage (a batch is one step of state per key; pipelines compose through their sinks),
 * every sink an {@code EgressOutput}, and watermarks before windows.
 */
final class PlanShape {
  private final Plan plan;
  private final Routes routes;
  private final KeyBySpec keyBy;
  private final KeyCheck keys;
  private final String keyedOperator;
  private final boolean windowed;
  private final WatermarkStrategy<Object> watermarks;

  PlanShape(Pipeline pipeline) {
    this(pipeline, null);
  }

  /** The shape of {@code pipeline}, its refused outputs set aside in {@code refusedSink}. */
  PlanShape(Pipeline pipeline, EgressSink refusedSink) {
    this.plan = PipelinePlans.plan(pipeline, 1);
    if (plan.stages().size() > 2) {
      throw new IllegalArgumentException(
          "On Lambda a pipeline has at most one keyBy (each batch takes one step of each key's"
              + " state); this one has "
              + (plan.stages().size() - 1)
              + ": end the first part in an EgressOutput to a Kinesis stream or SQS queue and"
              + " read it with a second pipeline");
    }
    this.routes = new Routes(plan, refusedSink);
    this.keyBy = plan.stages().size() > 1 ? plan.stages().get(1).keyBy() : null;
    OperatorSpec first =
        keyBy == null || plan.stages().get(1).operators().isEmpty()
            ? null
            : plan.stages().get(1).operators().get(0);
    this.keyedOperator = first != null && first.keyed() ? BatchChains.operatorId(plan, 1, 0) : null;
    this.windowed = first instanceof WindowSpec;
    // A batch fires windows of keys it did not see, and replays, reading keys from timer items.
    this.keys = keyBy == null ? null : new KeyCheck(keyBy, windowed);
    WatermarkStrategy<Object> found = null;
    for (OperatorSpec operator : plan.stages().get(0).operators()) {
      if (operator instanceof WatermarkSpec spec) {
        found = spec.strategy();
      }
    }
    this.watermarks = found;
    if (windowed && watermarks == null) {
      throw new IllegalArgumentException(
          "Windows need event time: call withWatermarks(WatermarkStrategy.boundedOutOfOrderness("
              + "...)) before keyBy (records carry their arrival time; withTimestamps takes"
              + " another)");
    }
  }

  Plan plan() {
    return plan;
  }

  Routes routes() {
    return routes;
  }

  boolean hasKeyedStage() {
    return keyBy != null;
  }

  /** True if a keyBy is followed only by stateless operators: no state to keep. */
  boolean statelessKeyedStage() {
    return keyBy != null && keyedOperator == null;
  }

  /** The keyed operator's id, or null if the pipeline keeps no state. */
  String keyedOperator() {
    return keyedOperator;
  }

  boolean windowed() {
    return windowed;
  }

  Serde<Object> keySerde() {
    return keyBy.keySerde();
  }

  Object keyOf(Record<?> record) {
    Object key = keyBy.selector().apply(record.value());
    if (!keys.accepts(key)) {
      throw keys.refusal(key, record);
    }
    return key;
  }

  /** The watermark after records up to {@code maxTimestamp}, or MIN if there is none. */
  long watermarkAt(long maxTimestamp) {
    if (watermarks == null || maxTimestamp == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    return maxTimestamp - watermarks.outOfOrdernessMs() - 1;
  }

  /** The idle timeout in ms, 0 for none. */
  long idleTimeout() {
    return watermarks == null ? 0 : watermarks.idleTimeoutMs();
  }
}
