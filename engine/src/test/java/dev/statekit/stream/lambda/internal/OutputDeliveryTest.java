package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.stream.lambda.RefusedOutput;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sorting an output's records when its sink refuses some for what they hold: each refused one set
 * aside once, with what the sink said, the rest delivered; anything else fails as it came.
 */
class OutputDeliveryTest {
  private static final TypeName EGRESS = TypeName.of("test", "out");
  private static final Address SOURCE = Address.of(TypeName.of("statekit.pipeline", "p"), "k");

  private final CollectingEgressSink delivered = new CollectingEgressSink();
  private final CollectingEgressSink refused = new CollectingEgressSink();

  /** Refuses records whose value starts with "bad", in a delivery only (its check takes all). */
  private final class Picky implements EgressSink {
    int deliveries;

    @Override
    public void deliver(List<EgressRecord> records) {
      deliveries++;
      for (EgressRecord record : records) {
        if (valueOf(record).startsWith("bad")) {
          throw EgressException.refusing(record.id(), "Egress record " + record.id() + " is bad");
        }
      }
      delivered.deliver(records);
    }
  }

  private static EgressRecord text(String id, String text) {
    return EgressRecord.builder(
            id, EGRESS, SOURCE, "io.statefun.types/string", Types.stringType().serialize(text))
        .key("group-" + id)
        .build();
  }

  private static String valueOf(EgressRecord record) {
    return Types.stringType().deserialize(record.value());
  }

  private List<RefusedOutput> setAside() {
    List<RefusedOutput> outputs = new ArrayList<>();
    refused.records().forEach(r -> outputs.add(RefusedOutput.TYPE.deserialize(r.value())));
    return outputs;
  }

  @Test
  void eachRecordTheSinkRefusesIsSetAsideOnceWithItsValueAndTheRestDelivered() {
    Picky sink = new Picky();

    new OutputDelivery(refused)
        .deliver(
            sink,
            List.of(text("1", "ok"), text("2", "bad one"), text("3", "fine"), text("4", "bad")));

    assertEquals(
        List.of("ok", "fine"),
        delivered.records().stream().map(OutputDeliveryTest::valueOf).toList());
    List<RefusedOutput> outputs = setAside();
    assertEquals(List.of("2", "4"), outputs.stream().map(RefusedOutput::id).toList());
    RefusedOutput first = outputs.get(0);
    assertEquals("test/out", first.egress());
    assertEquals(SOURCE.toString(), first.source());
    assertEquals("group-2", first.key());
    assertEquals("io.statefun.types/string", first.typeName());
    assertEquals("Egress record 2 is bad", first.reason());
    assertArrayEquals(Types.stringType().serialize("bad one"), first.value());
    assertEquals(first.value().length, first.bytes());
    assertEquals(1, first.part());
    assertEquals(1, first.parts());
    assertEquals(List.of("2", "4"), refused.records().stream().map(EgressRecord::id).toList());
    assertTrue(refused.records().stream().allMatch(r -> r.egress().equals(RefusedOutput.EGRESS)));
    assertEquals(3, sink.deliveries, "one refusal a delivery, the check taking all");
  }

  /**
   * A value past what one part carries comes in parts, each its own record: before, a value past 64
   * KiB was dropped, so a queue's message whose result was set aside (its input deleted once the
   * batch went on) left nothing but its id.
   */
  @Test
  void aLargeValueComesWholeInPartsAndALongKeyIsCut() {
    byte[] value = new byte[2 * RefusedOutput.MAX_VALUE_BYTES + 5];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) i;
    }
    EgressRecord large =
        EgressRecord.builder("big", EGRESS, SOURCE, "app/raw", value).key("k".repeat(5000)).build();
    EgressSink sink =
        records -> {
          throw EgressException.refusing("big", "too large");
        };

    new OutputDelivery(refused).deliver(sink, List.of(large));

    assertEquals(
        List.of("big#part1", "big#part2", "big#part3"),
        refused.records().stream().map(EgressRecord::id).toList());
    java.io.ByteArrayOutputStream joined = new java.io.ByteArrayOutputStream();
    for (RefusedOutput part : setAside()) {
      assertEquals("big", part.id());
      assertEquals(3, part.parts());
      assertEquals(value.length, part.bytes());
      assertEquals(RefusedOutput.MAX_KEY_CHARS, part.key().length());
      joined.writeBytes(part.value());
    }
    assertEquals(List.of(1, 2, 3), setAside().stream().map(RefusedOutput::part).toList());
    assertArrayEquals(value, joined.toByteArray());
    assertTrue(
        refused.records().stream().allMatch(r -> r.value().length < 100_000),
        "each part fits an SQS message");
  }

  @Test
  void aLongReasonIsCut() {
    EgressSink sink =
        records -> {
          throw EgressException.refusing(records.get(0).id(), "why ".repeat(1000));
        };

    new OutputDelivery(refused).deliver(sink, List.of(text("1", "x")));

    assertEquals(RefusedOutput.MAX_REASON_CHARS, setAside().get(0).reason().length());
  }

  @Test
  void aFailureThatNamesNoRecordOrAnotherRecordFailsAsItCame() {
    EgressException down = new EgressException(Reason.UNAVAILABLE, "down", null);
    EgressException stranger = EgressException.refusing("not-in-this-call", "who?");
    for (EgressException failure : List.of(down, stranger)) {
      EgressSink sink =
          records -> {
            throw failure;
          };
      assertSame(
          failure,
          assertThrows(
              EgressException.class,
              () -> new OutputDelivery(refused).deliver(sink, List.of(text("1", "x")))));
    }
    assertEquals(List.of(), refused.records());
  }

  @Test
  void withoutAPlaceTheRefusalSaysHowToGiveOne() {
    EgressException failed =
        assertThrows(
            EgressException.class,
            () -> new OutputDelivery(null).deliver(new Picky(), List.of(text("1", "bad"))));

    assertEquals(java.util.Optional.of("1"), failed.refusedRecordId());
    assertTrue(failed.getMessage().contains("Egress record 1 is bad"), failed.getMessage());
    assertTrue(failed.getMessage().contains("refusedOutputsTo"), failed.getMessage());
  }
}
