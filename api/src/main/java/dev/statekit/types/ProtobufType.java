package dev.statekit.types;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;

/** A protobuf message type: typename {@code type.googleapis.com/<full name>}, raw message bytes. */
final class ProtobufType<M extends Message> implements Type<M> {
  private final TypeName typeName;
  private final Parser<M> parser;

  @SuppressWarnings("unchecked")
  ProtobufType(M defaultInstance) {
    this.typeName =
        TypeName.of("type.googleapis.com", defaultInstance.getDescriptorForType().getFullName());
    this.parser = (Parser<M>) defaultInstance.getParserForType();
  }

  @Override
  public TypeName typeName() {
    return typeName;
  }

  @Override
  public byte[] serialize(M value) {
    return value.toByteArray();
  }

  @Override
  public M deserialize(byte[] bytes) {
    try {
      return parser.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "The bytes are not a valid " + typeName.name() + " message (" + e.getMessage() + ")", e);
    }
  }

  /** Protobuf messages are immutable once built. */
  @Override
  public boolean immutableValues() {
    return true;
  }

  @Override
  public String toString() {
    return typeName.toString();
  }
}
