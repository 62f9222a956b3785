package dev.statekit.types;

import com.google.protobuf.WireFormat.FieldType;

/** {@code io.statefun.types/double}: a {@code double} in field 1. */
final class DoubleType extends BuiltInType<Double> {
  static final DoubleType INSTANCE = new DoubleType();

  private DoubleType() {
    super("double");
  }

  @Override
  public byte[] serialize(Double value) {
    // proto3 omits a default value; only +0.0 is one, -0.0 keeps its sign on the wire.
    long bits = Double.doubleToRawLongBits(value);
    if (bits == 0) {
      return EMPTY;
    }
    byte[] out = new byte[9];
    out[0] = WireFormat.FIXED64_TAG;
    WireFormat.writeLittleEndian(out, 1, bits, 8);
    return out;
  }

  @Override
  public Double deserialize(byte[] bytes) {
    if (bytes.length == 0) {
      return 0d;
    }
    if (bytes.length == 9 && bytes[0] == WireFormat.FIXED64_TAG) {
      return Double.longBitsToDouble(WireFormat.readLittleEndian(bytes, 1, 8));
    }
    Object value = WireFormat.readField1(bytes, FieldType.DOUBLE, typeName().asString());
    return value == null ? 0d : (Double) value;
  }
}
