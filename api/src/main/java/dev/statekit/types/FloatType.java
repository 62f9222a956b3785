package dev.statekit.types;

import com.google.protobuf.WireFormat.FieldType;

/** {@code io.statefun.types/float}: a {@code float} in field 1. */
final class FloatType extends BuiltInType<Float> {
  static final FloatType INSTANCE = new FloatType();

  private FloatType() {
    super("float");
  }

  @Override
  public byte[] serialize(Float value) {
    // proto3 omits a default value; only +0.0 is one, -0.0 keeps its sign on the wire.
    int bits = Float.floatToRawIntBits(value);
    if (bits == 0) {
      return EMPTY;
    }
    byte[] out = new byte[5];
    out[0] = WireFormat.FIXED32_TAG;
    WireFormat.writeLittleEndian(out, 1, bits, 4);
    return out;
  }

  @Override
  public Float deserialize(byte[] bytes) {
    if (bytes.length == 0) {
      return 0f;
    }
    if (bytes.length == 5 && bytes[0] == WireFormat.FIXED32_TAG) {
      return Float.intBitsToFloat((int) WireFormat.readLittleEndian(bytes, 1, 4));
    }
    Object value = WireFormat.readField1(bytes, FieldType.FLOAT, typeName().asString());
    return value == null ? 0f : (Float) value;
  }
}
