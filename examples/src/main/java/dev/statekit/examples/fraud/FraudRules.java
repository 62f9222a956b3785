package dev.statekit.examples.fraud;

import java.util.Optional;

/**
 * When a card's activity in one window is suspicious: too many transactions, too much money, or too
 * many countries.
 *
 * @param maxTransactions the most transactions a window may hold
 * @param maxTotalCents the most money a window may hold, in cents
 * @param maxCountries the most distinct countries a window may hold
 */
public record FraudRules(long maxTransactions, long maxTotalCents, int maxCountries) {
  /** 5 transactions, 2,000.00 or 2 countries in 10 minutes are fine; more is not. */
  public static final FraudRules DEFAULT = new FraudRules(5, 200_000, 2);

  /** Checks the limits. */
  public FraudRules {
    if (maxTransactions < 1 || maxTotalCents < 1 || maxCountries < 1) {
      throw new IllegalArgumentException(
          "Every limit is at least 1, got "
              + maxTransactions
              + ", "
              + maxTotalCents
              + ", "
              + maxCountries);
    }
  }

  /** The rule {@code activity} breaks, if any. */
  public Optional<String> broken(CardActivity activity) {
    if (activity.count() > maxTransactions) {
      return Optional.of(
          activity.count() + " transactions in 10 minutes (limit " + maxTransactions + ")");
    }
    if (activity.totalCents() > maxTotalCents) {
      return Optional.of(
          String.format(
              "%.2f spent in 10 minutes (limit %.2f)",
              activity.totalCents() / 100.0, maxTotalCents / 100.0));
    }
    if (activity.countries().size() > maxCountries) {
      return Optional.of(
          activity.countries().size()
              + " countries in 10 minutes "
              + activity.countries()
              + " (limit "
              + maxCountries
              + ")");
    }
    return Optional.empty();
  }
}
