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
 * How a key names the output of a result it keeps: by egress, two outputs of one egress by their
 * count, the place by a name no egress has; and what an item written with indices still reads as.
 */
class KeptRouteNamesTest {
  private static final TypeName OUT = TypeName.of("test", "out");

  /** Two outputs of one egress (dead letters and results to the same egress, other sinks). */
  private static Routes twoOfOneEgress(CollectingEgressSink place) {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .<String>process(
                "decode",
                (record, out) -> out.collect(new String(record.value(), StandardCharsets.UTF_8)),
                FailurePolicy.deadLetter(
                    EgressOutput.to(
                        new CollectingEgressSink(),
                        OUT,
                        Types.simple(
                            TypeName.of("test", "letter"),
                            (dev.statekit.stream.DeadLetter<byte[]> d) -> d.record().value(),
                            b -> {
                              throw new UnsupportedOperationException();
                            }))))
            .to(EgressOutput.to(new CollectingEgressSink(), OUT, Types.stringType()));
    return new PlanShape(plan, place).routes();
  }

  @Test
  void outputsOfOneEgressAreToldApartAndEachNameLeadsBackToItsOutput() {
    Routes routes = twoOfOneEgress(new CollectingEgressSink());
    assertEquals(2, routes.size());
    assertEquals("test/out", routes.name(0));
    assertTrue(routes.name(1).startsWith("test/out") && !routes.name(1).equals("test/out"));
    for (int route = 0; route < routes.size(); route++) {
      assertEquals(route, routes.route(routes.name(route)));
    }
    assertEquals(Routes.REFUSED, routes.route(routes.name(Routes.REFUSED)));
    assertTrue(!routes.name(Routes.REFUSED).contains("/"), "the place's name is no egress's");
  }

  @Test
  void anOutputKeptByIndexBeforeNamesWereKeptIsReadAsThatIndex() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeShort(1); // the format before: the output's index
    out.writeUTF("p/split/1000/0/0");
    out.writeUTF("k1");
    out.writeBoolean(false);
    out.writeInt(3);
    out.write("k:1".getBytes(StandardCharsets.UTF_8));

    StoredOutput read =
        StoredOutput.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));

    Routes routes = twoOfOneEgress(null);
    assertEquals(1, read.routed(routes, "p").route());
    assertEquals("p/split/1000/0/0", read.routed(routes, "p").record().id());
  }

  @Test
  void aKeptOutputWritesItsNameAndReadsBackTheSame() throws IOException {
    Routes routes = twoOfOneEgress(new CollectingEgressSink());
    for (int route : new int[] {0, 1, Routes.REFUSED}) {
      StoredOutput kept =
          new StoredOutput(routes.name(route), "p/s/1/0/0", "k1", "group", new byte[] {1, 2});
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      kept.write(new DataOutputStream(bytes));
      if (route != 1) { // the count's separator takes two bytes in modified UTF-8
        assertEquals(kept.size(), bytes.size(), "size() is what write writes, for ASCII");
      }

      StoredOutput read =
          StoredOutput.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));

      assertEquals(routes.name(route), read.route());
      assertEquals(route, read.routed(routes, "p").route());
    }
  }

  @Test
  void aNameNoOutputHasIsRefusedNamingTheEgressAndTheOutputsThereAre() {
    Routes routes = twoOfOneEgress(null);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> routes.route("test/gone"));
    assertTrue(e.getMessage().contains("test/gone"), e.getMessage());
    assertTrue(e.getMessage().contains("test/out"), e.getMessage());
    IllegalStateException place =
        assertThrows(
            IllegalStateException.class,
            () -> routes.get(routes.route(routes.name(Routes.REFUSED))));
    assertTrue(place.getMessage().contains("refusedOutputsTo"), place.getMessage());
  }
}
