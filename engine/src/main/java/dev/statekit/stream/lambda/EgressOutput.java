package dev.statekit.stream.lambda;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.stream.Record;
import dev.statekit.stream.Sink;
import dev.statekit.stream.SinkWriter;
import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.internal.KeyNamingWriter;
import dev.statekit.stream.serde.AutoSerde;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.internal.StateKeys;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A pipeline sink that hands results to an {@link EgressSink} (an SQS queue, a Kinesis stream, a
 * DynamoDB table, a function address) as {@link EgressRecord}s of egress {@link #egress()}, values
 * written by a {@link Type}. A {@link BatchPipeline} ends in these (its late-record and dead-letter
 * sinks too): it gives every record an id that a replayed batch repeats, so a sink that writes by
 * id (a table, a FIFO queue, a function address) shows each result once.
 *
 * <pre>{@code
 * .to(EgressOutput.to(DynamoDbTableSink.onApplicationTable(dynamoDb, table),
 *         TypeName.of("clicks", "per-minute"), Types.stringType()))
 * }</pre>
 *
 * <p>Give each output of a pipeline an egress of its own. In a {@link BatchPipeline} a key keeps a
 * result until it is delivered naming its output by its egress, which the next deployment may have
 * in another place among its outputs: outputs of one egress there must share one sink object and
 * value type, or the pipeline is refused when built. Run in process, two outputs of one egress may
 * give two records one id (each output counts its own records).
 *
 * <p>A record's source address is {@code statekit.pipeline/<pipeline>/<key>} (the key of the
 * result, or the split for results without one), which SQS FIFO sinks use as the message group and
 * Kinesis sinks as the partition key unless {@link #withKey} gives another. Run in process by
 * {@code Pipeline.run}, it delivers at each checkpoint (at least once, a restore delivering again
 * what the checkpoint after it did not cover) with ids that a run over the same input repeats: a
 * record that comes from a source record is named by the egress, that record's split and offset,
 * its key and its place among that record's results ({@code <egress>/<split>@<offset>/<key>/<n>});
 * a window's or timer's result by the egress, its key and time ({@code <egress>/<key>/<time>/<n>}).
 * A key is named there as the state table names it: a string as itself, another key as the
 * base64url of what its stage's key serde writes.
 *
 * @param <T> the values' type
 */
public final class EgressOutput<T> implements Sink<T> {
  /** The namespace of the source addresses of pipeline results. */
  public static final String SOURCE_NAMESPACE = "statekit.pipeline";

  private final EgressSink sink;
  private final TypeName egress;
  private final Type<T> type;
  private final Function<? super T, String> key;

  private EgressOutput(
      EgressSink sink, TypeName egress, Type<T> type, Function<? super T, String> key) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.egress = Objects.requireNonNull(egress, "egress");
    this.type = Objects.requireNonNull(type, "type");
    this.key = key;
  }

  /** Results to {@code sink} as records of {@code egress}, values written by {@code type}. */
  public static <T> EgressOutput<T> to(EgressSink sink, TypeName egress, Type<T> type) {
    return new EgressOutput<>(sink, egress, type, null);
  }

  /** The same output with each record's key (partition key, message group) taken from its value. */
  public EgressOutput<T> withKey(Function<? super T, String> recordKey) {
    return new EgressOutput<>(sink, egress, type, Objects.requireNonNull(recordKey, "recordKey"));
  }

  /** The egress the records belong to. */
  public TypeName egress() {
    return egress;
  }

  /** The sink records are delivered to. */
  public EgressSink sink() {
    return sink;
  }

  /** The type name of the records' values, their {@link Type}'s. */
  public TypeName valueType() {
    return type.typeName();
  }

  /**
   * The egress record of one result.
   *
   * @param id the record's id, the same on every delivery
   * @param pipeline the pipeline's name
   * @param source the result's key or split, for the source address
   * @param value the result
   * @throws ClassCastException if the value is not of this output's type
   */
  @SuppressWarnings("unchecked")
  public EgressRecord record(String id, String pipeline, String source, Object value) {
    T typed = (T) value;
    return record(
        id, pipeline, source, key == null ? null : key.apply(typed), type.serialize(typed));
  }

  /**
   * The egress record of a result written earlier.
   *
   * @param id the record's id
   * @param pipeline the pipeline's name
   * @param source the result's key or split
   * @param recordKey the record's key, or null
   * @param value the value's bytes, as this output's type wrote them
   */
  public EgressRecord record(
      String id, String pipeline, String source, String recordKey, byte[] value) {
    EgressRecord.Builder builder =
        EgressRecord.builder(
            id,
            egress,
            Address.of(TypeName.of(SOURCE_NAMESPACE, pipeline), source.isEmpty() ? "-" : source),
            type.typeName().asString(),
            value);
    if (recordKey != null) {
      builder.key(recordKey);
    }
    return builder.build();
  }

  @Override
  public SinkWriter<T> open(int worker, int workers) {
    return new InProcessWriter();
  }

  /**
   * Delivers each checkpoint's results as the checkpoint is taken, with ids that a run over the
   * same input repeats.
   */
  private final class InProcessWriter implements SinkWriter<T>, KeyNamingWriter {
    private final List<Result> pending = new ArrayList<>();
    private Serde<Object> keySerde = AutoSerde.KEYS;

    @Override
    public void keysWrittenBy(Serde<Object> stageKeys) {
      if (stageKeys != null) {
        keySerde = stageKeys;
      }
    }

    @Override
    public void write(Record<T> record) {
      String source = record.key() == null ? "" : String.valueOf(record.key());
      T value = record.value();
      pending.add(
          new Result(
              base(record), source, key == null ? null : key.apply(value), type.serialize(value)));
    }

    /**
     * The key as the state table names it: a string as itself, another key as the base64url of its
     * serialized form. A key that the serde cannot write (a source's key in a stage that is not
     * keyed) is named by its string form, as nothing else names it.
     */
    private String keyName(Object recordKey) {
      if (recordKey == null) {
        return "";
      }
      try {
        return StateKeys.encode(recordKey, keySerde);
      } catch (RuntimeException e) {
        return String.valueOf(recordKey);
      }
    }

    /**
     * What the record's id counts from: the source record it comes from (its position, and its key,
     * as one source record's parts may be keyed apart) wherever it has one, as a replay from a
     * checkpoint reads the same records at the same positions; a window's or timer's result has
     * none, and is named by its key and time, which it fires once. Neither depends on where
     * checkpoints fall, on the writer, or on other records' timestamps.
     */
    private String base(Record<T> record) {
      SourcePosition position = record.position();
      String name = keyName(record.key());
      return position == null
          ? egress.asString() + "/" + name + "/" + record.timestamp() + "/"
          : egress.asString() + "/" + position.split() + "@" + position.offset() + "/" + name + "/";
    }

    @Override
    public void checkpoint(long checkpointId) {
      if (pending.isEmpty()) {
        return;
      }
      Map<Result, Integer> places = places();
      List<EgressRecord> records = new ArrayList<>(pending.size());
      for (Result result : pending) {
        records.add(
            record(
                result.base + places.getOrDefault(result, 0),
                egress.name(),
                result.source,
                result.recordKey,
                result.value));
      }
      pending.clear();
      sink.deliver(records);
    }

    /**
     * The place of each result among those of its base, where a base has several: ordered by what
     * they hold, not by arrival. Results of one source record (or one window time) that travelled
     * through keyed stages of several workers arrive in another order in every run; all of them
     * arrive before the checkpoint after their source record, so all are here to be ordered.
     */
    private Map<Result, Integer> places() {
      Map<String, List<Result>> byBase = new HashMap<>();
      for (Result result : pending) {
        byBase.computeIfAbsent(result.base, b -> new ArrayList<>(1)).add(result);
      }
      Map<Result, Integer> places = new IdentityHashMap<>();
      for (List<Result> results : byBase.values()) {
        if (results.size() > 1) {
          results.sort(BY_CONTENT);
          for (int n = 0; n < results.size(); n++) {
            places.put(results.get(n), n);
          }
        }
      }
      return places;
    }
  }

  /** A result waiting for its checkpoint: its id is its base and its place among the base's. */
  private record Result(String base, String source, String recordKey, byte[] value) {}

  /** Results of one base with equal content are alike: which gets which place does not matter. */
  private static final Comparator<Result> BY_CONTENT =
      Comparator.<Result, byte[]>comparing(Result::value, Arrays::compareUnsigned)
          .thenComparing(Result::recordKey, Comparator.nullsFirst(Comparator.naturalOrder()));

  @Override
  public String name() {
    return "egress:" + egress.asString();
  }
}
