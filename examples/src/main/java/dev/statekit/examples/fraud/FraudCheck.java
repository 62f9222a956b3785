package dev.statekit.examples.fraud;

import dev.statekit.stream.AggregateFunction;
import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.Sink;
import dev.statekit.stream.Source;
import dev.statekit.stream.WatermarkStrategy;
import dev.statekit.stream.Windows;
import dev.statekit.stream.serde.Serdes;
import java.time.Duration;
import java.util.Objects;

/**
 * The fraud check pipeline: JSON transactions, keyed by card, in sliding windows of 10 minutes
 * every minute; each window that breaks a rule becomes an {@link Alert}.
 *
 * <pre>
 * transactions -> parse (bad records dropped, counted) -> event time (30 s out of order)
 *   -> keyBy card -> sliding 10 min every 1 min -> activity -> rules -> alerts
 * </pre>
 */
public final class FraudCheck {
  /** The pipeline's name: it keys the pipeline's state and checkpoints. */
  public static final String NAME = "fraud-check";

  /** The window size. */
  public static final Duration WINDOW = Duration.ofMinutes(10);

  /** A new window starts this often. */
  public static final Duration SLIDE = Duration.ofMinutes(1);

  /** How late a transaction may arrive behind the latest one seen. */
  public static final Duration OUT_OF_ORDER = Duration.ofSeconds(30);

  private FraudCheck() {}

  /** How long a shard may be silent before windows fire without it, by default. */
  public static final Duration IDLE_TIMEOUT = Duration.ofMinutes(1);

  /**
   * The pipeline from {@code transactions} (JSON {@link Transaction} bytes) to {@code alerts}.
   *
   * @param partitions keyed workers (cards are spread over them)
   * @param idleTimeout how long a shard may send nothing before windows fire without waiting for it
   */
  public static Pipeline pipeline(
      Source<byte[]> transactions,
      Sink<Alert> alerts,
      FraudRules rules,
      int partitions,
      Duration idleTimeout) {
    Objects.requireNonNull(rules, "rules");
    var parse = Serdes.json(Transaction.class);
    return Pipeline.from(transactions)
        .<Transaction>process(
            "parse",
            (record, out) -> {
              Transaction t = parse.decode(record.value());
              if (t.card() == null || t.card().isBlank() || t.country() == null) {
                throw new IllegalArgumentException(
                    "A transaction needs a card and a country: " + t);
              }
              out.collect(t);
            },
            FailurePolicy.drop())
        .withWatermarks(
            WatermarkStrategy.<Transaction>boundedOutOfOrderness(OUT_OF_ORDER)
                .withTimestamps(Transaction::time)
                .withIdleTimeout(idleTimeout))
        .keyBy(Transaction::card, partitions)
        .window(Windows.sliding(WINDOW, SLIDE))
        .aggregate(
            new Activity(),
            Serdes.json(CardActivity.class),
            (String card, dev.statekit.stream.TimeWindow window, CardActivity activity) ->
                rules
                    .broken(activity)
                    .map(
                        reason ->
                            new Alert(
                                card,
                                window.start(),
                                window.end(),
                                activity.count(),
                                activity.totalCents(),
                                activity.countries(),
                                reason))
                    .orElse(null))
        .filter("suspicious", Objects::nonNull)
        .to(alerts);
  }

  /** Folds a card's transactions into its {@link CardActivity}. */
  static final class Activity
      implements AggregateFunction<Transaction, CardActivity, CardActivity> {
    @Override
    public CardActivity createAccumulator() {
      return CardActivity.NONE;
    }

    @Override
    public CardActivity add(Transaction value, CardActivity accumulator) {
      return accumulator.add(value);
    }

    @Override
    public CardActivity result(CardActivity accumulator) {
      return accumulator;
    }

    @Override
    public CardActivity merge(CardActivity a, CardActivity b) {
      return a.merge(b);
    }
  }
}
