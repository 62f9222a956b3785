package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * How a key names the output of a result it keeps: by its egress, each output having one of its
 * own; the place by a name no egress has; and what an item written with indices still reads as.
 */
class KeptRouteNamesTest {
  private static final TypeName OUT = TypeName.of("test", "out");

  /** Results to {@code results}, and dead letters of the decoding to {@code letters}. */
  private static Pipeline plan(TypeName letters, TypeName results) {
    return Pipeline.from(BatchSource.records())
        .<String>process(
            "decode",
            (record, out) -> out.collect(new String(record.value(), StandardCharsets.UTF_8)),
            FailurePolicy.deadLetter(
                EgressOutput.to(
                    new CollectingEgressSink(),
                    letters,
                    Types.simple(
                        TypeName.of("test", "letter"),
                        (dev.statekit.stream.DeadLetter<byte[]> d) -> d.record().value(),
                        b -> {
                          throw new UnsupportedOperationException();
                        }))))
        .to(EgressOutput.to(new CollectingEgressSink(), results, Types.stringType()));
  }

  private static Routes routes(CollectingEgressSink place) {
    return new PlanShape(plan(TypeName.of("#test", "dead"), OUT), place).routes();
  }

  @Test
  void eachNameLeadsBackToItsOutputAndThePlacesIsNoEgresss() {
    Routes routes = routes(new CollectingEgressSink());
    assertEquals(2, routes.size());
    assertEquals("#test/dead", routes.name(0));
    assertEquals("test/out", routes.name(1));
    for (int route = 0; route < routes.size(); route++) {
      assertEquals(route, routes.route(routes.name(route)));
    }
    assertEquals(Routes.REFUSED, routes.route(routes.name(Routes.REFUSED)));
    assertTrue(!routes.name(Routes.REFUSED).contains("/"), "the place's name is no egress's");
  }

  /**
   * Two outputs of one egress could only be told apart by their order in the plan, which the next
   * deployment may change (a dead-letter policy of the results' egress added upstream took the name
   * of the results, and kept results went to the dead letters): refused when built.
   */
  @Test
  void twoOutputsOfOneEgressAreRefusedWhenBuilt() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new PlanShape(plan(OUT, OUT), null));
    assertTrue(e.getMessage().contains("test/out"), e.getMessage());
    assertTrue(e.getMessage().contains("an egress of its own"), e.getMessage());
  }

  /** Late records to the results' egress, sink and value type: either output delivers alike. */
  @Test
  void outputsOfOneEgressSinkAndValueTypeShareTheirName() {
    CollectingEgressSink sink = new CollectingEgressSink();
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8))
            .withWatermarks(
                dev.statekit.stream.WatermarkStrategy.<String>boundedOutOfOrderness(
                        java.time.Duration.ZERO)
                    .withTimestamps(text -> 0L))
            .keyBy(text -> text)
            .window(dev.statekit.stream.Windows.tumbling(java.time.Duration.ofMillis(100)))
            .lateRecordsTo(EgressOutput.to(sink, OUT, Types.stringType()))
            .aggregate(
                dev.statekit.stream.AggregateFunction.<String>count(),
                dev.statekit.stream.serde.Serdes.longs(),
                (String key, dev.statekit.stream.TimeWindow w, Long n) -> key + "=" + n)
            .to(EgressOutput.to(sink, OUT, Types.stringType()));

    Routes routes = new PlanShape(plan, null).routes();

    assertEquals(2, routes.size());
    assertEquals(routes.name(0), routes.name(1));
    assertEquals(0, routes.route(routes.name(1)), "either delivers a kept result alike");
  }

  @Test
  void anOutputKeptByIndexBeforeNamesWereKeptIsReadAsThatIndex() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(1); // the format before: a count, then each output with its index in the plan
    out.writeShort(1);
    out.writeUTF("p/split/1000/0/0");
    out.writeUTF("k1");
    out.writeBoolean(false);
    out.writeInt(3);
    out.write("k:1".getBytes(StandardCharsets.UTF_8));

    StoredOutput read = readAll(bytes.toByteArray()).get(0);

    Routes routes = routes(null);
    assertEquals(1, read.routed(routes, "p").route());
    assertEquals("p/split/1000/0/0", read.routed(routes, "p").record().id());
  }

  /** A list names a route once for the outputs after it of the same route. */
  @Test
  void keptOutputsWriteTheirNamesAndReadBackTheSame() throws IOException {
    Routes routes = routes(new CollectingEgressSink());
    java.util.List<StoredOutput> kept = new java.util.ArrayList<>();
    for (int route : new int[] {1, 1, 0, Routes.REFUSED, 1, 1}) {
      kept.add(
          new StoredOutput(
              routes.name(route), "p/s/1/0/" + kept.size(), "k1", "group", new byte[] {1, 2}));
    }
    byte[] bytes = writeAll(kept);
    byte[] one = writeAll(kept.subList(0, 1));
    assertEquals(4 + kept.get(0).size(null), one.length, "size() is what a first output takes");
    assertTrue(bytes.length < 6 * one.length, "a route is not named again for the next output");

    java.util.List<StoredOutput> read = readAll(bytes);

    assertEquals(kept.size(), read.size());
    for (int i = 0; i < kept.size(); i++) {
      assertEquals(kept.get(i).route(), read.get(i).route());
      assertEquals(kept.get(i).id(), read.get(i).id());
      assertEquals(routes.route(kept.get(i).route()), read.get(i).routed(routes, "p").route());
    }
  }

  @Test
  void aListWhoseFirstOutputNamesTheRouteBeforeIsCorrupt() {
    byte[] bytes = {0, 0, 0, 1, (byte) 0xff, (byte) 0xfe, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assertThrows(IOException.class, () -> readAll(bytes));
  }

  /** A key item written before names were kept (format 2) reads, its outputs by index. */
  @Test
  void aKeysBookkeepingOfTheFormatBeforeReadsAndAnUnknownOneIsRefusedClearly() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(2);
    out.writeInt(0); // marks
    out.writeInt(0); // notes
    out.writeInt(1); // outbox entries
    out.writeUTF("split");
    out.writeUTF("1000");
    out.writeLong(7);
    out.writeInt(1);
    out.writeShort(1);
    out.writeUTF("p/split/1000/0/0");
    out.writeUTF("k1");
    out.writeBoolean(false);
    out.writeInt(0);
    out.writeInt(0); // pending entries
    byte[] formatTwo = bytes.toByteArray();

    KeyBook book = KeyBook.decode(formatTwo);

    assertEquals(1, book.outbox().get(0).outputs().get(0).routed(routes(null), "p").route());
    assertEquals(3, book.encode()[0], "written again in the format of names");
    formatTwo[0] = 9;
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> KeyBook.decode(formatTwo));
    assertTrue(e.getMessage().contains("reads 2 and 3"), e.getMessage());
  }

  @Test
  void aRouteNoVersionWritesIsCorrupt() {
    byte[] bytes = {0, 0, 0, 1, (byte) 0xff, (byte) 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    IOException e = assertThrows(IOException.class, () -> readAll(bytes));
    assertTrue(e.getMessage().contains("-3"), e.getMessage());
  }

  private static byte[] writeAll(java.util.List<StoredOutput> outputs) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StoredOutput.writeAll(new DataOutputStream(bytes), outputs);
    return bytes.toByteArray();
  }

  private static java.util.List<StoredOutput> readAll(byte[] bytes) throws IOException {
    return StoredOutput.readAll(new DataInputStream(new ByteArrayInputStream(bytes)));
  }

  /** An egress whose namespace starts with '#' was taken for an index and failed to parse. */
  @Test
  void aNameNoOutputHasIsRefusedNamingTheEgressAndTheOutputsThereAre() {
    Routes routes = routes(null);
    for (String gone : new String[] {"test/gone", "#test/gone"}) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> routes.route(gone));
      assertTrue(e.getMessage().contains(gone), e.getMessage());
      assertTrue(e.getMessage().contains("test/out"), e.getMessage());
    }
    IllegalStateException place =
        assertThrows(
            IllegalStateException.class,
            () -> routes.get(routes.route(routes.name(Routes.REFUSED))));
    assertTrue(place.getMessage().contains("refusedOutputsTo"), place.getMessage());
  }
}
