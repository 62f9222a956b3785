package dev.statekit.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statekit.examples.fraud.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The demo's card transactions: ordinary use, and three cards that break a rule each. */
public final class DemoData {
  static final String BURST = "4000-0000-0000-0666";
  static final String TRAVEL = "4000-0000-0000-0777";
  static final String SPENDER = "4000-0000-0000-0888";
  static final String ORDINARY = "4000-0000-0000-0001";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MINUTE = 60_000;

  private DemoData() {}

  /** Every card of the demo's transactions. */
  static List<String> cards() {
    List<String> cards = new ArrayList<>();
    for (int card = 1; card <= 12; card++) {
      cards.add(String.format("4000-0000-0000-%04d", card));
    }
    cards.addAll(List.of(BURST, TRAVEL, SPENDER));
    return cards;
  }

  /** When the last transaction is, after {@code start}: a coffee that moves event time on. */
  static final long LAST = 55 * 60_000;

  /**
   * About 80 transactions over 40 minutes starting at {@code start} (epoch ms), in time order, and
   * one at {@link #LAST}: event time on the stream then passes every window of the 40 minutes, as
   * it does on a stream that keeps flowing.
   */
  static List<byte[]> transactions(long start) {
    Random random = new Random(42);
    List<Transaction> all = new ArrayList<>();
    for (int card = 1; card <= 12; card++) {
      String number = cards().get(card - 1);
      for (int i = 0; i < 5; i++) {
        all.add(
            new Transaction(
                "t" + card + "-" + i,
                number,
                500 + random.nextInt(8_000),
                "shop-" + random.nextInt(20),
                "FR",
                start + i * 8 * MINUTE + random.nextInt(60_000)));
      }
    }
    for (int i = 0; i < 7; i++) {
      all.add(
          new Transaction(
              "burst-" + i, BURST, 2_500, "electronics", "FR", start + 20 * MINUTE + i * 15_000));
    }
    String[] countries = {"FR", "DE", "US"};
    for (int i = 0; i < 3; i++) {
      all.add(
          new Transaction(
              "trip-" + i,
              TRAVEL,
              1_200,
              "hotel",
              countries[i],
              start + 10 * MINUTE + i * 2 * MINUTE));
    }
    all.add(new Transaction("big-1", SPENDER, 120_000, "jeweller", "FR", start + 30 * MINUTE));
    all.add(new Transaction("big-2", SPENDER, 95_000, "jeweller", "FR", start + 33 * MINUTE));
    all.add(new Transaction("coffee", ORDINARY, 350, "cafe", "FR", start + LAST));
    all.sort((a, b) -> Long.compare(a.time(), b.time()));
    List<byte[]> bytes = new ArrayList<>();
    for (Transaction t : all) {
      try {
        bytes.add(JSON.writeValueAsBytes(t));
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }
    return bytes;
  }
}
