package dev.statekit.examples;

import dev.statekit.examples.fraud.AlertsToCards;
import dev.statekit.examples.fraud.Card;
import dev.statekit.examples.fraud.FraudCheck;
import dev.statekit.examples.fraud.FraudRules;
import dev.statekit.runtime.FunctionRuntime;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.EgressOutput;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/** The example pipelines, as the one entry point runs them: batch by batch, on Lambda's events. */
public final class ExamplePipelines {
  private ExamplePipelines() {}

  /** The names of the example pipelines. */
  public static List<String> names() {
    return List.of(FraudCheck.NAME);
  }

  /**
   * The fraud check over Kinesis batches: state, positions and watermarks in {@code store}, alerts
   * applied to the {@code fraud/card} functions through {@code runtime}.
   *
   * @param idleTimeout how long a shard may be silent before windows fire without it
   * @param batchTimeout the function's timeout
   * @param clock the wall clock (idle shards, retention)
   */
  public static BatchPipeline fraudCheck(
      BatchStore store,
      FunctionRuntime runtime,
      Duration idleTimeout,
      Duration batchTimeout,
      Clock clock) {
    java.util.Objects.requireNonNull(runtime, "runtime");
    return fraudCheck(store, () -> runtime, idleTimeout, batchTimeout, clock);
  }

  /**
   * Like {@link #fraudCheck(BatchStore, FunctionRuntime, Duration, Duration, Clock)}, the runtime
   * asked for with the first alert (a batch that raises none needs no runtime).
   */
  public static BatchPipeline fraudCheck(
      BatchStore store,
      Supplier<FunctionRuntime> runtime,
      Duration idleTimeout,
      Duration batchTimeout,
      Clock clock) {
    var alerts = EgressOutput.to(new AlertsToCards(runtime), AlertsToCards.ALERTS, Card.ALERT);
    return BatchPipeline.builder(
            FraudCheck.NAME,
            FraudCheck.pipeline(BatchSource.records(), alerts, FraudRules.DEFAULT, 2, idleTimeout))
        .store(store)
        .batchTimeout(batchTimeout)
        .clock(clock)
        .build();
  }
}
