package dev.statekit.runtime.internal;

import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.function.Address;
import dev.statekit.telemetry.TraceIds;
import java.nio.charset.StandardCharsets;

/**
 * How large the dead letter of a message would be. Between functions a value travels in base64, 4
 * bytes for 3; its dead letter is an envelope ({@link DeadLetters}) whose string value is JSON
 * text, where a quote or backslash takes 2 bytes and a control character or U+FFFE 6. A message
 * that fits a queue message may so have a dead letter that does not, and a dead letter the queue
 * refuses is refused on every try. So a message is refused when it is sent, before anything is
 * committed, if its dead letter would not fit.
 */
final class DeadLetterSize {
  private static final String STRING = "io.statefun.types/string";

  /** The key a dead letter of a sent or delayed message carries (its length is fixed). */
  private static final String KEY = "statekit:dl:" + "k".repeat(43);

  /** A trace id at its longest. */
  private static final String TRACE = "t".repeat(TraceIds.MAX_LENGTH);

  private DeadLetterSize() {}

  /**
   * The bytes of the dead letter's body of a message to {@code target} whose value is a string, or
   * 0 for any other value: a number, a boolean or base64, as small as in the bundle, which the
   * caller checks already. Exact for a large string, a bound that needs no rendering otherwise.
   *
   * @param budget the size the caller checks against: a string that fits even at 6 bytes a byte is
   *     not rendered
   */
  static long of(Address target, String typeName, byte[] value, long budget) {
    if (!STRING.equals(typeName)) {
      return 0;
    }
    long bound = 160 + 6L * (target.toString().length() + typeName.length() + value.length);
    if (bound <= budget) {
      return bound;
    }
    return EnvelopeCodec.renderText(target, typeName, value, KEY, TRACE)
        .getBytes(StandardCharsets.UTF_8)
        .length;
  }
}
