package dev.statekit.egress;

import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * A record on its way to a sink: what a function sent to an egress, with an id that is the same
 * every time the record is delivered, so sinks (and their readers) can drop repeats.
 *
 * <p>For a record that carried a StateFun Kafka or Kinesis egress record, {@link #value()} is that
 * record's value bytes, {@link #key()} its key or partition key and {@link #destination()} its
 * topic or stream.
 */
public final class EgressRecord {
  private static final String STRING_TYPE = Types.stringType().typeName().asString();

  private final String id;
  private final TypeName egress;
  private final Address source;
  private final String valueTypeName;
  private final byte[] value;
  private final String key;
  private final String destination;
  private final String explicitHashKey;
  private final String traceId;

  private EgressRecord(Builder builder) {
    this.id = builder.id;
    this.egress = builder.egress;
    this.source = builder.source;
    this.valueTypeName = builder.valueTypeName;
    this.value = builder.value;
    this.key = builder.key;
    this.destination = builder.destination;
    this.explicitHashKey = builder.explicitHashKey;
    this.traceId = builder.traceId;
  }

  /** Starts a record; {@code value} is handed over, never changed afterwards. */
  public static Builder builder(
      String id, TypeName egress, Address source, String valueTypeName, byte[] value) {
    return new Builder(id, egress, source, valueTypeName, value);
  }

  /** The record's id: the same on every delivery of this record, unique to it. */
  public String id() {
    return id;
  }

  /** The egress the function sent it to. */
  public TypeName egress() {
    return egress;
  }

  /** The address whose invocation sent it. */
  public Address source() {
    return source;
  }

  /** The type name of the value the function sent. */
  public String valueTypeName() {
    return valueTypeName;
  }

  /** The value's bytes (not a copy: never change them). */
  public byte[] value() {
    return value;
  }

  /** The key or partition key, if the record named one. */
  public Optional<String> key() {
    return Optional.ofNullable(key);
  }

  /** The topic or stream the record named, if any. */
  public Optional<String> destination() {
    return Optional.ofNullable(destination);
  }

  /** The Kinesis explicit hash key the record named, if any. */
  public Optional<String> explicitHashKey() {
    return Optional.ofNullable(explicitHashKey);
  }

  /**
   * The value as text: a string value as itself, other values as their UTF-8 text when they are
   * valid UTF-8 (JSON, plain text), empty otherwise.
   */
  public Optional<String> text() {
    if (STRING_TYPE.equals(valueTypeName) && key == null && destination == null) {
      try {
        return Optional.of(Types.stringType().deserialize(value));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    }
    try {
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(value))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /** The value as text if it is text ({@link #text()}), otherwise base64. */
  public String textOrBase64() {
    return text().orElseGet(() -> Base64.getEncoder().encodeToString(value));
  }

  /**
   * The trace id of the request that caused this record, if known: a sink that carries metadata
   * beside the payload (SQS: the message attribute {@code statekit.trace}) passes it on; the
   * payload itself stays as the function wrote it.
   */
  public Optional<String> traceId() {
    return Optional.ofNullable(traceId);
  }

  /** This record with {@code traceId} (or none, if null); the trace id is not part of equality. */
  public EgressRecord withTraceId(String traceId) {
    Builder builder = new Builder(id, egress, source, valueTypeName, value);
    builder.key = key;
    builder.destination = destination;
    builder.explicitHashKey = explicitHashKey;
    builder.traceId = traceId;
    return builder.build();
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof EgressRecord)) {
      return false;
    }
    EgressRecord that = (EgressRecord) other;
    return id.equals(that.id)
        && egress.equals(that.egress)
        && source.equals(that.source)
        && valueTypeName.equals(that.valueTypeName)
        && Arrays.equals(value, that.value)
        && Objects.equals(key, that.key)
        && Objects.equals(destination, that.destination)
        && Objects.equals(explicitHashKey, that.explicitHashKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, egress, source);
  }

  @Override
  public String toString() {
    return "EgressRecord " + id + " to " + egress + " from " + source + ": " + textOrBase64();
  }

  /** Builds an {@link EgressRecord}. */
  public static final class Builder {
    private final String id;
    private final TypeName egress;
    private final Address source;
    private final String valueTypeName;
    private final byte[] value;
    private String key;
    private String destination;
    private String explicitHashKey;
    private String traceId;

    private Builder(
        String id, TypeName egress, Address source, String valueTypeName, byte[] value) {
      this.id = Objects.requireNonNull(id, "id");
      this.egress = Objects.requireNonNull(egress, "egress");
      this.source = Objects.requireNonNull(source, "source");
      this.valueTypeName = Objects.requireNonNull(valueTypeName, "valueTypeName");
      this.value = Objects.requireNonNull(value, "value");
      if (id.isEmpty()) {
        throw new IllegalArgumentException("An egress record's id must not be empty");
      }
    }

    /** The key or partition key. */
    public Builder key(String key) {
      this.key = key;
      return this;
    }

    /** The topic or stream; null or empty for none (the sink's own, if it has one). */
    public Builder destination(String destination) {
      this.destination = destination == null || destination.isEmpty() ? null : destination;
      return this;
    }

    /** The Kinesis explicit hash key. */
    public Builder explicitHashKey(String explicitHashKey) {
      this.explicitHashKey = explicitHashKey;
      return this;
    }

    /** The trace id of the request that caused the record (optional). */
    public Builder traceId(String traceId) {
      this.traceId = traceId;
      return this;
    }

    /** The record. */
    public EgressRecord build() {
      return new EgressRecord(this);
    }
  }
}
