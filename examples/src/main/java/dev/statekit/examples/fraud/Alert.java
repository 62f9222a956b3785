package dev.statekit.examples.fraud;

import java.util.List;

/**
 * A window of a card's activity that broke a rule: the pipeline's output, sent to {@code
 * fraud/card/<card>}.
 *
 * @param card the card
 * @param windowStart the window's start, epoch milliseconds (inclusive)
 * @param windowEnd the window's end, epoch milliseconds (exclusive)
 * @param count transactions in the window
 * @param totalCents their total amount
 * @param countries the distinct countries
 * @param reason which rule the window broke
 */
public record Alert(
    String card,
    long windowStart,
    long windowEnd,
    long count,
    long totalCents,
    List<String> countries,
    String reason) {
  /** Copies the list. */
  public Alert {
    countries = List.copyOf(countries);
  }

  /** What tells alerts apart: the card and the end of the window that broke a rule. */
  public String id() {
    return card + "@" + windowEnd;
  }
}
