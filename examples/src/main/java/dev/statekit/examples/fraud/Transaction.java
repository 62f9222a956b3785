package dev.statekit.examples.fraud;

/**
 * A card payment, as producers put it on the transactions stream (JSON).
 *
 * @param id the transaction's id
 * @param card the card number (the stream's partition key)
 * @param amountCents the amount in cents
 * @param merchant who was paid
 * @param country where, as an ISO country code
 * @param time when, in epoch milliseconds (event time)
 */
public record Transaction(
    String id, String card, long amountCents, String merchant, String country, long time) {}
