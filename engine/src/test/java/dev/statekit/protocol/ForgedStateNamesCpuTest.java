package dev.statekit.protocol;

import static dev.statekit.protocol.WireBytes.concat;
import static dev.statekit.protocol.WireBytes.field;
import static dev.statekit.protocol.WireBytes.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

/**
 * A forged request naming a state hundreds of thousands of times costs CPU in proportion to its
 * states, whatever the number of values the function declares. The handler compared each state's
 * name with every declared name: against a function declaring 100 values, 100 comparisons a state
 * (names of the declared length that share their prefix), many times what the same request costs
 * against a function declaring one. Measured as CPU time of the same thread, the least of three
 * runs after a warm-up, as a ratio between the two functions (a ratio, not a time: load moves
 * both).
 */
class ForgedStateNamesCpuTest {
  private static final TypeName WIDE = TypeName.of("test", "wide");
  private static final TypeName NARROW = TypeName.of("test", "narrow");
  private static final int STATES = 400_000;

  private final RequestReplyHandler handler = new RequestReplyHandler(registry());

  private static StatefulFunctions registry() {
    ValueSpec<?>[] wide = new ValueSpec<?>[100];
    for (int i = 0; i < wide.length; i++) {
      wide[i] = ValueSpec.named(String.format("value_%02d", i)).withUtf8StringType();
    }
    return StatefulFunctions.builder()
        .withFunction(WIDE, (context, message) -> {}, wide)
        .withFunction(NARROW, (context, message) -> {}, wide[0])
        .build();
  }

  /** {@link #STATES} states of a name no function declares, then one message. */
  private static byte[] request(TypeName target) {
    ByteArrayOutputStream batch = new ByteArrayOutputStream();
    batch.writeBytes(
        field(1, concat(string(1, target.namespace()), string(2, target.name()), string(3, "a"))));
    byte[] state = field(2, string(1, "value_zz"));
    for (int i = 0; i < STATES; i++) {
      batch.writeBytes(state);
    }
    byte[] argument =
        concat(string(1, "io.statefun.types/string"), new byte[] {0x10, 0x01}, field(3));
    batch.writeBytes(field(3, field(3, argument)));
    return field(100, batch.toByteArray());
  }

  private long cpuNanos(byte[] request) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long least = Long.MAX_VALUE;
    for (int run = 0; run < 4; run++) {
      long start = threads.getCurrentThreadCpuTime();
      handler.invoke(request);
      long spent = threads.getCurrentThreadCpuTime() - start;
      if (run > 0) {
        least = Math.min(least, spent);
      }
    }
    return least;
  }

  /** What the names are matched for: each declared state the request names, its first value. */
  @Test
  void aFunctionOfManyValuesIsOfferedTheStatesItDeclares() {
    PeerWire.Request request = PeerWire.request("test", "wide", "a").state("value_zz");
    for (int i = 99; i >= 0; i--) {
      if (i != 37) {
        request.state(String.format("value_%02d", i), PeerWire.string("first " + i));
      }
    }
    request.state("value_12", PeerWire.integer(12)); // named again: the first value counts
    var answer = PeerWire.parse(handler.invoke(request.message(PeerWire.string("hi")).bytes()));

    assertTrue(answer.hasIncompleteInvocationContext(), answer.toString());
    var missing = answer.getIncompleteInvocationContext().getMissingValuesList();
    assertEquals(1, missing.size(), missing.toString());
    assertEquals("value_37", missing.get(0).getStateName());
  }

  @Test
  void aHundredDeclaredValuesCostAboutWhatOneDoes() {
    long narrow = cpuNanos(request(NARROW));
    long wide = cpuNanos(request(WIDE));

    double ratio = (double) wide / narrow;
    System.out.printf(
        "RESULT forged state names: %d states, 100 declared %.1f ms, 1 declared %.1f ms, ratio"
            + " %.2f%n",
        STATES, wide / 1e6, narrow / 1e6, ratio);
    assertTrue(ratio < 3, "100 declared values cost " + ratio + " times what one does");
  }
}
