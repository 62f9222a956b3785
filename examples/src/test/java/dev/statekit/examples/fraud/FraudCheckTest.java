package dev.statekit.examples.fraud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.stream.CollectingSink;
import dev.statekit.stream.PipelineResult;
import dev.statekit.stream.Record;
import dev.statekit.stream.RunOptions;
import dev.statekit.stream.Sinks;
import dev.statekit.stream.Sources;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class FraudCheckTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MINUTE = 60_000;

  @Test
  void aBurstOnOneCardRaisesAlertsInEveryWindowHoldingItAndNoneForNormalUse() throws Exception {
    List<byte[]> input = new ArrayList<>();
    // 6 payments within one minute on the stolen card; one every 3 minutes on the normal card.
    for (int i = 0; i < 6; i++) {
      input.add(
          json(new Transaction("s" + i, "stolen", 1_000, "shop", "FR", 20 * MINUTE + i * 5_000)));
    }
    for (int i = 0; i < 10; i++) {
      input.add(json(new Transaction("n" + i, "normal", 5_000, "cafe", "FR", i * 3 * MINUTE)));
    }
    input.add("not json".getBytes(StandardCharsets.UTF_8));

    CollectingSink<Alert> alerts = Sinks.collecting();
    PipelineResult result = run(input, alerts, FraudRules.DEFAULT);

    assertEquals(1, result.droppedRecords());
    List<Alert> all = alerts.values();
    assertEquals(Set.of("stolen"), cards(all));
    // The burst sits in minute 20: each of the 10 windows [20-k, 30-k) minutes, k = 0..9, holds it.
    assertEquals(10, all.size());
    TreeSet<Long> starts = new TreeSet<>();
    for (Alert alert : all) {
      assertEquals(10 * MINUTE, alert.windowEnd() - alert.windowStart());
      assertEquals(6, alert.count());
      assertEquals("6 transactions in 10 minutes (limit 5)", alert.reason());
      starts.add(alert.windowStart());
    }
    assertEquals(11 * MINUTE, starts.first());
    assertEquals(20 * MINUTE, starts.last());
  }

  @Test
  void moneyAndCountriesAreRulesToo() throws Exception {
    List<byte[]> input = new ArrayList<>();
    input.add(json(new Transaction("a", "rich", 150_000, "jeweller", "FR", 0)));
    input.add(json(new Transaction("b", "rich", 60_000, "jeweller", "FR", MINUTE)));
    input.add(json(new Transaction("c", "travel", 100, "x", "FR", 0)));
    input.add(json(new Transaction("d", "travel", 100, "x", "DE", MINUTE)));
    input.add(json(new Transaction("e", "travel", 100, "x", "US", 2 * MINUTE)));

    CollectingSink<Alert> alerts = Sinks.collecting();
    run(input, alerts, FraudRules.DEFAULT);

    Alert rich = first(alerts.values(), "rich");
    assertEquals("2100.00 spent in 10 minutes (limit 2000.00)", rich.reason());
    Alert travel = first(alerts.values(), "travel");
    assertTrue(
        travel.reason().startsWith("3 countries in 10 minutes [DE, FR, US]"), travel.reason());
  }

  private static PipelineResult run(
      List<byte[]> input, dev.statekit.stream.Sink<Alert> alerts, FraudRules rules)
      throws InterruptedException {
    List<Record<byte[]>> records = input.stream().map(Record::of).toList();
    return FraudCheck.pipeline(
            Sources.fromRecords(records, 64), alerts, rules, 2, FraudCheck.IDLE_TIMEOUT)
        .run(RunOptions.named(FraudCheck.NAME).build());
  }

  private static Set<String> cards(List<Alert> alerts) {
    TreeSet<String> cards = new TreeSet<>();
    alerts.forEach(a -> cards.add(a.card()));
    return cards;
  }

  private static Alert first(List<Alert> alerts, String card) {
    return alerts.stream().filter(a -> a.card().equals(card)).findFirst().orElseThrow();
  }

  static byte[] json(Transaction t) throws Exception {
    return JSON.writeValueAsBytes(t);
  }
}
