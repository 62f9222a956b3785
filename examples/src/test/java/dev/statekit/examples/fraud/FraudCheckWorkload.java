package dev.statekit.examples.fraud;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.simulation.Workload;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The fraud check as a simulated workload: card transactions on a Kinesis stream partitioned by
 * card, ordinary payments with bursts now and then (many payments, large amounts, several countries
 * in a few minutes), out of order within the pipeline's 30 seconds; the reference computes the
 * alerts of every sliding window straight from the transactions with {@link FraudRules}.
 */
final class FraudCheckWorkload implements Workload {
  private static final Serde<Transaction> JSON = Serdes.json(Transaction.class);
  private static final String[] COUNTRIES = {"DE", "FR", "NL", "US", "BR"};

  @Override
  public String name() {
    return "the fraud check on Kinesis";
  }

  @Override
  public Source source() {
    return Source.KINESIS;
  }

  @Override
  public Pipeline pipeline(EgressSink sink, Duration idleTimeout) {
    return FraudCheck.pipeline(
        BatchSource.records(),
        EgressOutput.to(sink, AlertsToCards.ALERTS, Card.ALERT),
        FraudRules.DEFAULT,
        2,
        idleTimeout);
  }

  @Override
  public List<Input> input(Random random, long start) {
    List<Input> input = new ArrayList<>();
    int cards = 1 + random.nextInt(6);
    int count = 20 + random.nextInt(120);
    long at = start;
    for (int i = 0; i < count; i++) {
      boolean burst = random.nextInt(8) == 0;
      at += burst ? random.nextInt(5_000) : random.nextInt(90_000);
      String card = "4000-0000-0000-000" + random.nextInt(cards);
      long amount = burst ? 50_000 + random.nextInt(100_000) : 500 + random.nextInt(10_000);
      String country = COUNTRIES[burst ? random.nextInt(COUNTRIES.length) : 0];
      long time = at - random.nextInt(20_000);
      Transaction t =
          new Transaction("t" + i, card, amount, "shop-" + random.nextInt(9), country, time);
      input.add(new Input(at, card, JSON.encode(t)));
    }
    return input;
  }

  @Override
  public List<String> expected(List<Input> input) {
    Map<String, CardActivity> windows = new TreeMap<>();
    for (Input in : input) {
      Transaction t = JSON.decode(in.data());
      for (long s : starts(t.time())) {
        windows.merge(t.card() + "@" + s, CardActivity.NONE.add(t), CardActivity::merge);
      }
    }
    List<String> alerts = new ArrayList<>();
    windows.forEach(
        (window, activity) -> {
          String card = window.substring(0, window.indexOf('@'));
          long start = Long.parseLong(window.substring(window.indexOf('@') + 1));
          FraudRules.DEFAULT
              .broken(activity)
              .ifPresent(
                  reason ->
                      alerts.add(
                          text(
                              new Alert(
                                  card,
                                  start,
                                  start + FraudCheck.WINDOW.toMillis(),
                                  activity.count(),
                                  activity.totalCents(),
                                  activity.countries(),
                                  reason))));
        });
    return alerts;
  }

  @Override
  public boolean explains(List<String> missing, List<String> extra, List<byte[]> late) {
    List<String> touched = new ArrayList<>();
    for (byte[] data : late) {
      Transaction t = JSON.decode(data);
      for (long s : starts(t.time())) {
        touched.add(t.card() + "@" + s);
      }
    }
    List<String> differing = new ArrayList<>(missing);
    differing.addAll(extra);
    return differing.stream()
        .map(text -> Card.ALERT.deserialize(text.getBytes(StandardCharsets.UTF_8)))
        .allMatch(alert -> touched.contains(alert.card() + "@" + alert.windowStart()));
  }

  private static List<Long> starts(long time) {
    long slide = FraudCheck.SLIDE.toMillis();
    long size = FraudCheck.WINDOW.toMillis();
    List<Long> starts = new ArrayList<>();
    for (long s = time - Math.floorMod(time, slide); s > time - size; s -= slide) {
      starts.add(s);
    }
    return starts;
  }

  private static String text(Alert alert) {
    return new String(Card.ALERT.serialize(alert), StandardCharsets.UTF_8);
  }
}
