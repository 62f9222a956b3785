package dev.statekit.stream.lambda;

/**
 * One key's stored item in a {@link BatchStore}.
 *
 * @param key the encoded key
 * @param version incremented by every write; the next write's condition
 * @param state the key's operator state (all its windows), or null if it has none
 * @param bookkeeping what the pipeline records per key: per split, the position of the last record
 *     applied to this key; for unordered splits the fingerprints of recent records; the outputs
 *     waiting for delivery
 */
public record KeyItem(String key, long version, byte[] state, byte[] bookkeeping) {}
