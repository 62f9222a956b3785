package dev.statekit.types;

import com.google.protobuf.WireFormat.FieldType;

/** {@code io.statefun.types/long}: an {@code sfixed64} in field 1. */
final class LongType extends BuiltInType<Long> {
  static final LongType INSTANCE = new LongType();

  private LongType() {
    super("long");
  }

  @Override
  public byte[] serialize(Long value) {
    long v = value;
    if (v == 0) {
      return EMPTY;
    }
    byte[] out = new byte[9];
    out[0] = WireFormat.FIXED64_TAG;
    WireFormat.writeLittleEndian(out, 1, v, 8);
    return out;
  }

  @Override
  public Long deserialize(byte[] bytes) {
    if (bytes.length == 0) {
      return 0L;
    }
    if (bytes.length == 9 && bytes[0] == WireFormat.FIXED64_TAG) {
      return WireFormat.readLittleEndian(bytes, 1, 8);
    }
    Object value = WireFormat.readField1(bytes, FieldType.SFIXED64, typeName().asString());
    return value == null ? 0L : (Long) value;
  }
}
