package dev.statekit.egress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.KafkaEgressMessage;
import dev.statekit.function.KinesisEgressMessage;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Routes, and StateFun's Kafka and Kinesis records mapped onto sinks. */
class EgressRoutesTest {
  private static final TypeName PLAIN = TypeName.of("app", "plain");
  private static final TypeName ORDERS = TypeName.of("app", "orders");
  private static final TypeName EVENTS = TypeName.of("app", "events");
  private static final Address SOURCE = Address.of(TypeName.of("app", "fn"), "1");

  private final CollectingEgressSink plain = new CollectingEgressSink();
  private final CollectingEgressSink paid = new CollectingEgressSink();
  private final CollectingEgressSink events = new CollectingEgressSink();

  private final EgressRoutes routes =
      EgressRoutes.builder()
          .route(PLAIN, plain)
          .routeKafka(ORDERS, Map.of("paid", paid))
          .routeKinesis(EVENTS, events)
          .build();

  @Test
  void aPlainRouteHandsTheRecordOverAsSent() {
    EgressRoutes.Routed routed = resolve(EgressMessageOf.text(PLAIN, "hello"));

    assertSame(plain, routed.sink());
    assertEquals("hello", routed.record().text().orElseThrow());
    assertEquals("id-1", routed.record().id());
    assertEquals(SOURCE, routed.record().source());
  }

  @Test
  void aKafkaRecordGoesToItsTopicsSinkWithItsKeyAndValue() {
    EgressMessage record =
        KafkaEgressMessage.forEgress(ORDERS)
            .withTopic("paid")
            .withUtf8Key("order-7")
            .withUtf8Value("{\"total\": 3}")
            .build();

    EgressRoutes.Routed routed = resolve(record);

    assertSame(paid, routed.sink());
    assertEquals("order-7", routed.record().key().orElseThrow());
    assertEquals("paid", routed.record().destination().orElseThrow());
    assertEquals("{\"total\": 3}", routed.record().text().orElseThrow());
  }

  @Test
  void aKinesisRecordCarriesItsStreamPartitionAndHashKeys() {
    EgressMessage record =
        KinesisEgressMessage.forEgress(EVENTS)
            .withStream("clicks")
            .withUtf8PartitionKey("user-1")
            .withUtf8ExplicitHashKey("12345")
            .withValue(new byte[] {1, 2})
            .build();

    EgressRoutes.Routed routed = resolve(record);

    assertSame(events, routed.sink());
    assertEquals("clicks", routed.record().destination().orElseThrow());
    assertEquals("user-1", routed.record().key().orElseThrow());
    assertEquals("12345", routed.record().explicitHashKey().orElseThrow());
    assertArrayEquals(new byte[] {1, 2}, routed.record().value());
  }

  @Test
  void recordsWithoutARouteAreRefusedUnlessThereIsAFallback() {
    EgressMessage stray = EgressMessageOf.text(TypeName.of("app", "stray"), "?");
    var noRoute = assertThrows(IllegalArgumentException.class, () -> resolve(stray));
    var unknownTopic =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                resolve(
                    KafkaEgressMessage.forEgress(ORDERS)
                        .withTopic("refunds")
                        .withUtf8Value("x")
                        .build()));
    var notKafka =
        assertThrows(
            IllegalArgumentException.class, () -> resolve(EgressMessageOf.text(ORDERS, "x")));
    CollectingEgressSink fallback = new CollectingEgressSink();

    assertTrue(noRoute.getMessage().contains("No sink for egress app/stray"), noRoute.getMessage());
    assertTrue(unknownTopic.getMessage().contains("'refunds'"), unknownTopic.getMessage());
    assertTrue(notKafka.getMessage().contains("KafkaEgressMessage"), notKafka.getMessage());
    assertSame(
        fallback,
        EgressRoutes.builder()
            .otherwise(fallback)
            .build()
            .resolve(
                "i", stray.targetEgress(), SOURCE, "io.statefun.types/string", stray.rawValue())
            .sink());
    assertThrows(
        IllegalArgumentException.class,
        () -> EgressRoutes.builder().route(PLAIN, plain).route(PLAIN, plain));
  }

  @Test
  void aCollectingSinkKeepsEachRecordOnceAndCountsRepeats() {
    EgressRecord record =
        EgressRecord.builder("r1", PLAIN, SOURCE, "app/raw", "x".getBytes(StandardCharsets.UTF_8))
            .build();

    plain.deliver(java.util.List.of(record, record));

    assertEquals(1, plain.records().size());
    assertEquals(2, plain.deliveries());
    assertEquals(java.util.List.of("x"), plain.texts());
  }

  /**
   * A Kafka record without a topic (proto3's "") names none: a route by topic says so, where it
   * looked for the sink of topic "" and a sink of its own was handed "" as a destination.
   */
  @Test
  void aKafkaRecordWithoutATopicNamesNone() {
    byte[] noTopic =
        dev.statekit.protocol.internal.wire.KafkaProducerRecord.newBuilder()
            .setKey("order-7")
            .setValueBytes(com.google.protobuf.ByteString.copyFromUtf8("{}"))
            .build()
            .toByteArray();
    String kafkaType = "type.googleapis.com/io.statefun.sdk.egress.KafkaProducerRecord";

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> routes.resolve("id-1", ORDERS, SOURCE, kafkaType, noTopic));
    assertTrue(e.getMessage().contains("names no topic"), e.getMessage());

    EgressRoutes oneSink = EgressRoutes.builder().routeKafka(ORDERS, paid).build();
    EgressRecord record = oneSink.resolve("id-1", ORDERS, SOURCE, kafkaType, noTopic).record();
    assertTrue(record.destination().isEmpty(), record.toString());
    assertEquals("order-7", record.key().orElseThrow());
  }

  private EgressRoutes.Routed resolve(EgressMessage message) {
    return routes.resolve(
        "id-1",
        message.targetEgress(),
        SOURCE,
        message.valueTypeName().asString(),
        message.rawValue());
  }

  /** Builds plain text records. */
  private static final class EgressMessageOf {
    static EgressMessage text(TypeName egress, String text) {
      return dev.statekit.function.EgressMessageBuilder.forEgress(egress).withValue(text).build();
    }
  }
}
