package dev.statekit.types;

import com.google.protobuf.WireFormat.FieldType;

/** {@code io.statefun.types/bool}: a {@code bool} in field 1. */
final class BooleanType extends BuiltInType<Boolean> {
  static final BooleanType INSTANCE = new BooleanType();
  private static final byte[] TRUE = {WireFormat.VARINT_TAG, 1};

  private BooleanType() {
    super("bool");
  }

  @Override
  public byte[] serialize(Boolean value) {
    return value ? TRUE.clone() : EMPTY;
  }

  @Override
  public Boolean deserialize(byte[] bytes) {
    if (bytes.length == 0) {
      return false;
    }
    if (bytes.length == 2 && bytes[0] == WireFormat.VARINT_TAG && (bytes[1] & 0x80) == 0) {
      return bytes[1] != 0;
    }
    Object value = WireFormat.readField1(bytes, FieldType.BOOL, typeName().asString());
    return value != null && (Boolean) value;
  }
}
