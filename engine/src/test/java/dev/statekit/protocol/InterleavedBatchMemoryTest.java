package dev.statekit.protocol;

import static dev.statekit.protocol.ForgedRequestBound.ALLOWED_RATIO;
import static dev.statekit.protocol.ForgedRequestBound.allocatedBy;
import static dev.statekit.protocol.WireBytes.concat;
import static dev.statekit.protocol.WireBytes.field;
import static dev.statekit.protocol.WireBytes.string;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The bound of ForgedBatchMemoryTest (a request allocates at most four times its size) for a batch
 * whose kinds of entries take turns: the reader sizes each kind's arrays by what the rest of the
 * request could hold of that kind, so the rest, when it holds the other kind, lets both grow
 * fourfold past what they keep. Invocations just past a power of four, then states just past the
 * same power (whose bytes count as room for the invocations), then invocations that fill the grown
 * invocation arrays and grow them again to their exact count (whose bytes count as room for both).
 */
class InterleavedBatchMemoryTest {
  private static final int RUNNABLE_INVOCATION_BYTES = 11;
  private static final int STATE_BYTES = 5;

  /** The smallest invocation the handler runs: argument a/b or a/c, has_value, no value. */
  private static byte[] invocation(int i) {
    return new byte[] {
      0x1a, 0x09, 0x12, 0x07, 0x0a, 0x03, 'a', '/', (byte) ('b' + (i & 1)), 0x10, 1
    };
  }

  /** A state named "x", which the function does not declare, without a value. */
  private static final byte[] STATE = {0x12, 0x03, 0x0a, 0x01, 'x'};

  private final RequestReplyHandler handler =
      new RequestReplyHandler(ConformanceFunctions.registry());

  @Test
  void invocationsThenStatesThenInvocationsWithinTheBound() {
    int power = 1 << 18; // 4^9
    int first = power + 1;
    int states = power + 1;
    // After the first invocations the rest must hold 7 * power invocations' bytes, after the
    // states 7 * power states' bytes, for each kind to grow fourfold.
    long afterFirst = 7L * power * RUNNABLE_INVOCATION_BYTES - (long) states * STATE_BYTES;
    long afterStates = 7L * power * STATE_BYTES;
    int second = (int) (Math.max(afterFirst, afterStates) / RUNNABLE_INVOCATION_BYTES) + 2;

    byte[] forged = request(first, states, second);
    // The answer is the incomplete context's (the function's states are not sent): nothing runs.
    // Answered once first: the thread's reader then drops its grown arrays and starts again from
    // four entries, as on a fresh thread (after a small batch, whose arrays it keeps, its steps of
    // four would start elsewhere and miss the powers of four the request is cut at).
    handler.invoke(forged);

    long allocated = allocatedBy(() -> handler.invoke(forged));

    System.out.printf(
        "interleaved: a request of %,d bytes allocated %,d bytes (%.2f times its size)%n",
        forged.length, allocated, (double) allocated / forged.length);
    assertTrue(
        allocated <= ALLOWED_RATIO * forged.length,
        String.format(
            "a request of %,d bytes (%,d invocations, %,d states, %,d invocations) allocated %,d"
                + " bytes (%.2f times its size), more than %d",
            forged.length,
            first,
            states,
            second,
            allocated,
            (double) allocated / forged.length,
            ALLOWED_RATIO));
  }

  private static byte[] request(int first, int states, int second) {
    ByteArrayOutputStream batch = new ByteArrayOutputStream();
    batch.writeBytes(field(1, concat(string(1, "test"), string(2, "counter"), string(3, "a"))));
    for (int i = 0; i < first; i++) {
      batch.writeBytes(invocation(i));
    }
    for (int i = 0; i < states; i++) {
      batch.writeBytes(STATE);
    }
    for (int i = 0; i < second; i++) {
      batch.writeBytes(invocation(first + i));
    }
    return field(100, batch.toByteArray());
  }
}
