package dev.statekit.egress;

import dev.statekit.function.Address;
import dev.statekit.protocol.EgressRecords;
import dev.statekit.types.TypeName;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Which sink each egress goes to, immutable once built:
 *
 * <pre>{@code
 * EgressRoutes routes = EgressRoutes.builder()
 *     .route(Greeter.GREETS, new SqsEgressSink(sqs, greetsQueueUrl))
 *     .routeKafka(ORDERS, Map.of("orders", new KinesisEgressSink(kinesis, "orders")))
 *     .routeKinesis(EVENTS, new KinesisEgressSink(kinesis, null))
 *     .otherwise(new LoggingSink())
 *     .build();
 * }</pre>
 *
 * A plain route hands records over as the function sent them. A Kafka route reads each record as a
 * StateFun {@code KafkaProducerRecord} and hands over its value, with its key as {@link
 * EgressRecord#key()} and its topic as {@link EgressRecord#destination()}; a Kinesis route does the
 * same with a {@code KinesisEgressRecord} (stream, partition key, explicit hash key). So functions
 * written for a StateFun cluster's Kafka and Kinesis egresses run unchanged.
 */
public final class EgressRoutes {
  private static final String KAFKA_TYPE =
      "type.googleapis.com/io.statefun.sdk.egress.KafkaProducerRecord";
  private static final String KINESIS_TYPE =
      "type.googleapis.com/io.statefun.sdk.egress.KinesisEgressRecord";

  private final Map<TypeName, Route> routes;
  private final EgressSink otherwise;

  private EgressRoutes(Builder builder) {
    this.routes = Map.copyOf(builder.routes);
    this.otherwise = builder.otherwise;
  }

  /** Starts an empty set of routes. */
  public static Builder builder() {
    return new Builder();
  }

  /** No routes: any egress record is refused. */
  public static EgressRoutes none() {
    return builder().build();
  }

  /**
   * The sink a record goes to, and the record as that sink gets it.
   *
   * @throws IllegalArgumentException if no route takes the egress, a Kafka or Kinesis route gets a
   *     value that is not such a record, or its topic or stream has no sink
   */
  public Routed resolve(
      String id, TypeName egress, Address source, String valueTypeName, byte[] value) {
    Route route = routes.get(egress);
    if (route == null) {
      if (otherwise == null) {
        throw new IllegalArgumentException(
            "No sink for egress "
                + egress
                + "; add a route with EgressRoutes.builder().route("
                + egress
                + ", sink) (routed: "
                + routes.keySet()
                + ")");
      }
      return new Routed(
          otherwise, EgressRecord.builder(id, egress, source, valueTypeName, value).build());
    }
    return route.resolve(id, egress, source, valueTypeName, value);
  }

  /**
   * A resolved record.
   *
   * @param sink where it goes
   * @param record what the sink gets
   */
  public record Routed(EgressSink sink, EgressRecord record) {}

  @Override
  public String toString() {
    return "EgressRoutes" + routes.keySet() + (otherwise == null ? "" : " otherwise " + otherwise);
  }

  private static final class Route {
    final String format;
    final EgressSink single;
    final Function<String, EgressSink> byDestination;

    Route(String format, EgressSink single, Function<String, EgressSink> byDestination) {
      this.format = format;
      this.single = single;
      this.byDestination = byDestination;
    }

    Routed resolve(String id, TypeName egress, Address source, String type, byte[] value) {
      if (format == null) {
        return new Routed(single, EgressRecord.builder(id, egress, source, type, value).build());
      }
      if (!format.equals(type)) {
        throw new IllegalArgumentException(
            "Egress "
                + egress
                + " is routed as "
                + (format.equals(KAFKA_TYPE) ? "Kafka" : "Kinesis")
                + " records but got a "
                + type
                + "; build its records with "
                + (format.equals(KAFKA_TYPE) ? "KafkaEgressMessage" : "KinesisEgressMessage"));
      }
      EgressRecord.Builder record;
      String destination;
      try {
        if (format.equals(KAFKA_TYPE)) {
          EgressRecords.Kafka kafka = EgressRecords.kafka(value);
          destination = kafka.topic();
          record = EgressRecord.builder(id, egress, source, type, kafka.value()).key(kafka.key());
        } else {
          EgressRecords.Kinesis kinesis = EgressRecords.kinesis(value);
          destination = kinesis.stream();
          record =
              EgressRecord.builder(id, egress, source, type, kinesis.value())
                  .key(kinesis.partitionKey())
                  .explicitHashKey(kinesis.explicitHashKey());
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "A record for egress " + egress + " is not a valid " + type + ": " + e.getMessage(), e);
      }
      if (single == null && destination == null) {
        throw new IllegalArgumentException(
            "A record for egress "
                + egress
                + " names no "
                + (format.equals(KAFKA_TYPE) ? "topic" : "stream")
                + ", and its route picks the sink by it: set it in the record, or route the"
                + " egress to one sink");
      }
      EgressSink sink = single != null ? single : byDestination.apply(destination);
      if (sink == null) {
        throw new IllegalArgumentException(
            "Egress "
                + egress
                + " has no sink for '"
                + destination
                + "'; add it to the route's map");
      }
      return new Routed(sink, record.destination(destination).build());
    }
  }

  /** Builds {@link EgressRoutes}. */
  public static final class Builder {
    private final Map<TypeName, Route> routes = new LinkedHashMap<>();
    private EgressSink otherwise;

    private Builder() {}

    /** Sends every record of {@code egress} to {@code sink} as the function sent it. */
    public Builder route(TypeName egress, EgressSink sink) {
      return add(egress, new Route(null, Objects.requireNonNull(sink, "sink"), null));
    }

    /**
     * Reads the records of {@code egress} as StateFun Kafka records; every topic to {@code sink}.
     */
    public Builder routeKafka(TypeName egress, EgressSink sink) {
      return add(egress, new Route(KAFKA_TYPE, Objects.requireNonNull(sink, "sink"), null));
    }

    /** Reads the records of {@code egress} as StateFun Kafka records; each topic to its sink. */
    public Builder routeKafka(TypeName egress, Map<String, EgressSink> sinksByTopic) {
      Map<String, EgressSink> copy = new HashMap<>(sinksByTopic);
      return add(egress, new Route(KAFKA_TYPE, null, copy::get));
    }

    /**
     * Reads the records of {@code egress} as StateFun Kinesis records; every stream to {@code
     * sink}.
     */
    public Builder routeKinesis(TypeName egress, EgressSink sink) {
      return add(egress, new Route(KINESIS_TYPE, Objects.requireNonNull(sink, "sink"), null));
    }

    /** Reads the records of {@code egress} as StateFun Kinesis records; each stream to its sink. */
    public Builder routeKinesis(TypeName egress, Map<String, EgressSink> sinksByStream) {
      Map<String, EgressSink> copy = new HashMap<>(sinksByStream);
      return add(egress, new Route(KINESIS_TYPE, null, copy::get));
    }

    /** Where records of egresses without a route go; without it they are refused. */
    public Builder otherwise(EgressSink sink) {
      this.otherwise = Objects.requireNonNull(sink, "sink");
      return this;
    }

    /** The routes. */
    public EgressRoutes build() {
      return new EgressRoutes(this);
    }

    private Builder add(TypeName egress, Route route) {
      Objects.requireNonNull(egress, "egress");
      if (routes.putIfAbsent(egress, route) != null) {
        throw new IllegalArgumentException(
            "Egress " + egress + " is routed twice; give each egress one route");
      }
      return this;
    }
  }
}
