package dev.statekit.examples.fraud;

/**
 * Why a card is blocked: the persisted value of {@code fraud/card/<card>}.
 *
 * @param reason the rule the first alert broke
 * @param windowEnd the end of that alert's window, epoch milliseconds
 * @param alerts how many alerts came in since the block (the first included)
 */
public record CardBlock(String reason, long windowEnd, int alerts) {}
