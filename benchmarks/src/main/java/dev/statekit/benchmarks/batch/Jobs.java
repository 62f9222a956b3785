package dev.statekit.benchmarks.batch;

import dev.statekit.examples.fraud.Alert;
import dev.statekit.examples.fraud.FraudCheck;
import dev.statekit.examples.fraud.FraudRules;
import dev.statekit.examples.fraud.Transaction;
import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.Sink;
import dev.statekit.stream.Source;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import java.time.Duration;

/**
 * The two measured jobs as StateKit pipelines, built the same way for the batch engine and the
 * in-process engine (only the source and the sink differ).
 */
enum Jobs {
  /** The example application's fraud check, as deployed. */
  FRAUD("fraud") {
    @Override
    Pipeline pipeline(Source<byte[]> transactions, Sink<?> out) {
      @SuppressWarnings("unchecked")
      Sink<Alert> alerts = (Sink<Alert>) out;
      return FraudCheck.pipeline(transactions, alerts, FraudRules.DEFAULT, 2, IDLE);
    }
  },
  /** Transactions per card per minute. */
  COUNT("count") {
    @Override
    Pipeline pipeline(Source<byte[]> transactions, Sink<?> out) {
      @SuppressWarnings("unchecked")
      Sink<String> counts = (Sink<String>) out;
      return Pipeline.from(transactions)
          .decode(Serdes.json(Transaction.class))
          .withWatermarks(
              WatermarkStrategy.<Transaction>boundedOutOfOrderness(Duration.ofSeconds(30))
                  .withTimestamps(Transaction::time)
                  .withIdleTimeout(IDLE))
          .keyBy(Transaction::card, 2)
          .window(Windows.tumbling(Duration.ofMinutes(1)))
          .aggregate(
              AggregateFunction.<Transaction>count(),
              Serdes.longs(),
              (String card, dev.statekit.stream.TimeWindow window, Long n) ->
                  card + "@" + window.start() + "=" + n)
          .to(counts);
    }
  };

  /** Long enough that no shard of the measured runs goes idle. */
  static final Duration IDLE = Duration.ofMinutes(10);

  final String label;

  /**
   * The job labelled {@code name}.
   *
   * @param option the option it came from, for the error
   */
  static Jobs named(String name, String option) {
    for (Jobs job : values()) {
      if (job.label.equals(name)) {
        return job;
      }
    }
    throw new IllegalArgumentException(
        "statekit.batch.jobs names fraud and/or count, comma-separated; got '" + option + "'");
  }

  Jobs(String label) {
    this.label = label;
  }

  abstract Pipeline pipeline(Source<byte[]> transactions, Sink<?> out);
}
