/**
 * The fraud check example: card transactions (JSON, from a Kinesis stream) keyed by card, counted
 * in sliding windows of 10 minutes every minute; a window that breaks a {@link
 * dev.statekit.examples.fraud.FraudRules rule} becomes an {@link dev.statekit.examples.fraud.Alert}
 * sent to the function {@code fraud/card/<card>}, which blocks the card.
 */
package dev.statekit.examples.fraud;
