package dev.statekit.benchmarks.batch;

import dev.statekit.examples.fraud.Transaction;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import java.util.Random;

/**
 * The suite's input: card transactions as the fraud check reads them (JSON), 1,000 cards, 1,000
 * transactions a minute of event time, each up to 20 s behind the latest (within the pipelines' 30
 * s), ordinary amounts with now and then a burst that breaks a rule. Generated once with a fixed
 * seed, so every engine reads the same bytes.
 */
final class Transactions {
  static final int CARDS = 1000;
  static final long START = 1_700_000_000_000L;
  static final long SPACING_MILLIS = 60;
  private static final String[] COUNTRIES = {"DE", "FR", "NL", "US", "BR"};
  private static final Serde<Transaction> JSON = Serdes.json(Transaction.class);

  final byte[][] data;
  final String[] cards;
  final long[] arrival;

  private Transactions(int count) {
    data = new byte[count][];
    cards = new String[count];
    arrival = new long[count];
    Random random = new Random(16);
    for (int i = 0; i < count; i++) {
      String card = "4000-0000-0000-" + (1000 + random.nextInt(CARDS));
      boolean burst = random.nextInt(50) == 0;
      long at = START + i * SPACING_MILLIS;
      Transaction t =
          new Transaction(
              "t" + i,
              card,
              burst ? 150_000 + random.nextInt(100_000) : 500 + random.nextInt(10_000),
              "shop-" + random.nextInt(50),
              COUNTRIES[burst ? random.nextInt(COUNTRIES.length) : 0],
              at - random.nextInt(20_000));
      data[i] = JSON.encode(t);
      cards[i] = card;
      arrival[i] = at;
    }
  }

  static Transactions generate(int count) {
    return new Transactions(count);
  }

  int size() {
    return data.length;
  }

  /**
   * A record of a card of its own, two hours of event time after record {@code index}: the last of
   * each shard's input in the batch engine's runs. Its watermark passes every window of the input,
   * so the batch engine fires them all, as the other engines do at the input's end; its own windows
   * stay open, so it adds no output.
   */
  byte[] closing(int index, int shard) {
    long at = START + index * SPACING_MILLIS + 2 * 3_600_000L;
    return JSON.encode(
        new Transaction("closing-" + shard, "closing-card-" + shard, 100, "shop-0", "DE", at));
  }

  /** The shard a record goes to, as Kinesis places records by partition key (the card). */
  int shard(int index, int shards) {
    return Math.floorMod(cards[index].hashCode(), shards);
  }
}
