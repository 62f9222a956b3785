package dev.statekit.runtime.internal;

import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.function.Address;
import dev.statekit.runtime.store.DynamoDbStateItems;
import java.nio.charset.StandardCharsets;

/**
 * The longest address the runtime keeps state for: an address's state item is keyed by its text
 * ({@code namespace/type/id}) behind a short prefix, and DynamoDB refuses a partition key over
 * 2,048 bytes on every request, for good. Checked wherever an address enters (a message to it, a
 * message or delayed message a function sends to it), on every store alike, so that such a message
 * is refused alone, with its reason, instead of failing every read of the batch it came in.
 */
final class AddressLimit {
  /** The most bytes of an address's text, in UTF-8. */
  static final int MAX_BYTES = DynamoDbStateItems.MAX_ADDRESS_BYTES;

  private AddressLimit() {}

  /** Why {@code address} cannot be kept, or null if it can. */
  static String problem(Address address) {
    String text = address.toString();
    // Three bytes a character at most: most addresses are known to fit without encoding them.
    if (text.length() * 3L <= MAX_BYTES) {
      return null;
    }
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes <= MAX_BYTES) {
      return null;
    }
    return "The address "
        + text.substring(0, Math.min(text.length(), 100))
        + "... takes "
        + bytes
        + " bytes, more than the "
        + MAX_BYTES
        + " an address may take (its state is kept under its text, and a DynamoDB key holds"
        + " 2,048 bytes); use a shorter id, for example a hash of the long one";
  }

  /** A message to {@code address} as an invalid envelope, or null if it can be kept. */
  static InvalidEnvelopeException refusal(Address address) {
    String problem = problem(address);
    return problem == null ? null : new InvalidEnvelopeException(problem);
  }
}
