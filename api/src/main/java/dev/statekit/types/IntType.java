package dev.statekit.types;

import com.google.protobuf.WireFormat.FieldType;

/** {@code io.statefun.types/int}: an {@code sfixed32} in field 1. */
final class IntType extends BuiltInType<Integer> {
  static final IntType INSTANCE = new IntType();

  private IntType() {
    super("int");
  }

  @Override
  public byte[] serialize(Integer value) {
    int v = value;
    if (v == 0) {
      return EMPTY;
    }
    byte[] out = new byte[5];
    out[0] = WireFormat.FIXED32_TAG;
    WireFormat.writeLittleEndian(out, 1, v, 4);
    return out;
  }

  @Override
  public Integer deserialize(byte[] bytes) {
    if (bytes.length == 0) {
      return 0;
    }
    if (bytes.length == 5 && bytes[0] == WireFormat.FIXED32_TAG) {
      return (int) WireFormat.readLittleEndian(bytes, 1, 4);
    }
    Object value = WireFormat.readField1(bytes, FieldType.SFIXED32, typeName().asString());
    return value == null ? 0 : (Integer) value;
  }
}
