package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sink that sent part of a call before refusing a record (as SqsEgressSink sends ten at a time):
 * what went out goes again with the same ids, in order, and nothing is lost; a failure that passes
 * while sending again fails the call.
 */
class OutputDeliveryPartialSendTest {
  private static final TypeName EGRESS = TypeName.of("test", "out");
  private static final Address SOURCE = Address.of(TypeName.of("statekit.pipeline", "p"), "k");

  private final CollectingEgressSink delivered = new CollectingEgressSink();
  private final CollectingEgressSink refused = new CollectingEgressSink();

  private static EgressRecord text(String id, String text) {
    return EgressRecord.builder(
            id, EGRESS, SOURCE, "io.statefun.types/string", Types.stringType().serialize(text))
        .build();
  }

  /** Sends in chunks of two (as SqsEgressSink sends tens), refusing "bad" ones mid-way. */
  private final class Chunked implements EgressSink {
    final List<String> sent = new ArrayList<>();

    @Override
    public void deliver(List<EgressRecord> records) {
      List<EgressRecord> chunk = new ArrayList<>();
      for (EgressRecord r : records) {
        check(r);
        chunk.add(r);
        if (chunk.size() == 2) {
          chunk.forEach(c -> sent.add(c.id()));
          delivered.deliver(chunk);
          chunk = new ArrayList<>();
        }
      }
      chunk.forEach(c -> sent.add(c.id()));
      delivered.deliver(chunk);
    }

    @Override
    public void check(EgressRecord record) {
      if (Types.stringType().deserialize(record.value()).startsWith("bad")) {
        throw EgressException.refusing(record.id(), "bad " + record.id());
      }
    }
  }

  @Test
  void aRefusalAfterAPartialSendLosesNothingAndOrderHolds() {
    Chunked sink = new Chunked();
    new OutputDelivery(refused)
        .deliver(
            sink,
            List.of(
                text("1", "a"),
                text("2", "b"),
                text("3", "bad"),
                text("4", "c"),
                text("5", "bad")));
    assertEquals(
        List.of("1", "2", "4"), delivered.records().stream().map(EgressRecord::id).toList());
    assertEquals(List.of("3", "5"), refused.records().stream().map(EgressRecord::id).toList());
    // Repeats (1, 2) are at least once with their ids, in order.
    assertEquals(List.of("1", "2", "1", "2", "4"), sink.sent);
  }

  @Test
  void aStrangerRefusalThenASuccessDeliversAll() {
    int[] calls = {0};
    EgressSink sink =
        records -> {
          if (calls[0]++ == 0) {
            throw EgressException.refusing("stranger", "who?");
          }
          delivered.deliver(records);
        };
    new OutputDelivery(refused).deliver(sink, List.of(text("1", "a"), text("2", "b")));
    assertEquals(2, delivered.records().size());
    assertEquals(0, refused.records().size());
  }

  @Test
  void aPassingFailureOfTheRedeliveryFailsTheCall() {
    int[] calls = {0};
    EgressSink sink =
        new EgressSink() {
          @Override
          public void deliver(List<EgressRecord> records) {
            if (calls[0]++ == 0) {
              throw EgressException.refusing("2", "bad");
            }
            throw new EgressException(Reason.UNAVAILABLE, "throttled", null);
          }
        };
    assertThrows(
        EgressException.class,
        () -> new OutputDelivery(refused).deliver(sink, List.of(text("1", "a"), text("2", "b"))));
    assertEquals(0, refused.records().size(), "nothing set aside before the rest went out");
  }
}
