package dev.statekit.examples.fraud;

import java.util.List;
import java.util.TreeSet;

/**
 * What a card did in one window: the accumulator of the window aggregate, kept in keyed state.
 *
 * @param count how many transactions
 * @param totalCents their total amount
 * @param countries the distinct countries they came from, sorted
 */
public record CardActivity(long count, long totalCents, List<String> countries) {
  /** Copies the list. */
  public CardActivity {
    countries = List.copyOf(countries);
  }

  /** No transactions: the accumulator a window starts from. */
  public static final CardActivity NONE = new CardActivity(0, 0, List.of());

  /** This activity with one more transaction. */
  public CardActivity add(Transaction t) {
    TreeSet<String> more = new TreeSet<>(countries);
    more.add(t.country());
    return new CardActivity(count + 1, totalCents + t.amountCents(), List.copyOf(more));
  }

  /** The activity of both. */
  public CardActivity merge(CardActivity other) {
    TreeSet<String> all = new TreeSet<>(countries);
    all.addAll(other.countries);
    return new CardActivity(count + other.count, totalCents + other.totalCents, List.copyOf(all));
  }
}
