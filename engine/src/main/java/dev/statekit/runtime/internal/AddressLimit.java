package dev.statekit.runtime.internal;

import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.function.Address;
import dev.statekit.runtime.store.DynamoDbStateItems;

/**
 * The addresses the runtime keeps state for: an address's state item is keyed by its text ({@code
 * namespace/type/id}) behind a short prefix, and DynamoDB refuses, on every request and for good, a
 * partition key over 2,048 bytes or one that is not valid UTF-16 (an unpaired surrogate). Checked
 * wherever an address enters (a message to it, a message or delayed message a function sends to
 * it), on every store alike, so that such a message is refused alone, with its reason, instead of
 * failing every read of the batch it came in.
 */
final class AddressLimit {
  /** The most bytes of an address's text, in UTF-8. */
  static final int MAX_BYTES = DynamoDbStateItems.MAX_ADDRESS_BYTES;

  private AddressLimit() {}

  /** The most bytes of a cancellation token, in UTF-8. */
  static final int MAX_TOKEN_BYTES = 1_024;

  /** Why {@code address} cannot be kept, or null if it can. */
  static String problem(Address address) {
    String text = address.toString();
    long bytes = utf8Bytes(text);
    if (bytes < 0) {
      return "The address "
          + shown(text)
          + " holds half a character at index "
          + (-1 - bytes)
          + " (an unpaired surrogate, as cutting a string inside an emoji leaves), which no"
          + " DynamoDB key can hold; cut ids at whole characters (code points)";
    }
    if (bytes <= MAX_BYTES) {
      return null;
    }
    return "The address "
        + shown(text)
        + " takes "
        + bytes
        + " bytes, more than the "
        + MAX_BYTES
        + " an address may take (its state is kept under its text, and a DynamoDB key holds"
        + " 2,048 bytes); use a shorter id, for example a hash of the long one";
  }

  /**
   * Why a cancellation token cannot be kept, or null if it can. It is a key of its owner's item and
   * an attribute name of the request that frees it: half a character would reach DynamoDB as
   * another text, so its cancellation would find nothing, and the timer would fire all the same.
   */
  static String tokenProblem(String token) {
    long bytes = utf8Bytes(token);
    if (bytes < 0) {
      return "The cancellation token "
          + shown(token)
          + " holds half a character at index "
          + (-1 - bytes)
          + " (an unpaired surrogate), which DynamoDB cannot keep as it is; cut tokens at whole"
          + " characters (code points)";
    }
    return bytes <= MAX_TOKEN_BYTES
        ? null
        : "The cancellation token "
            + shown(token)
            + " takes "
            + bytes
            + " bytes, more than the "
            + MAX_TOKEN_BYTES
            + " a token may take; use a shorter token, for example a hash of the long one";
  }

  /** Bytes of {@code text} in UTF-8, or {@code -1 - index} of its first unpaired surrogate. */
  private static long utf8Bytes(String text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        return -1L - i;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  private static String shown(String text) {
    return text.length() <= 100 ? text : text.substring(0, 100) + "...";
  }

  /** A message to {@code address} as an invalid envelope, or null if it can be kept. */
  static InvalidEnvelopeException refusal(Address address) {
    String problem = problem(address);
    return problem == null ? null : new InvalidEnvelopeException(problem);
  }
}
