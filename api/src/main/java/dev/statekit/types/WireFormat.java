package dev.statekit.types;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat.FieldType;
import java.io.IOException;

/**
 * Reads field 1 of StateFun's one-field wrapper messages ({@code io.statefun.sdk.types}) in full
 * protobuf generality: other fields are skipped and the last occurrence wins, as any protobuf
 * parser does. The encoders in the primitive types write the canonical, shortest form.
 */
final class WireFormat {
  private WireFormat() {}

  // The tag byte of field 1 with each wire type the wrappers use.
  static final byte FIXED32_TAG = 0x0D;
  static final byte FIXED64_TAG = 0x09;
  static final byte VARINT_TAG = 0x08;
  static final byte LENGTH_DELIMITED_TAG = 0x0A;

  /** Reads field 1 of the wrapper; the zero value when it is absent. */
  static Object readField1(byte[] bytes, FieldType type, String typeName) {
    Object value = null;
    try {
      CodedInputStream in = CodedInputStream.newInstance(bytes);
      int tag;
      while ((tag = in.readTag()) != 0) {
        if (tag == ((1 << 3) | type.getWireType())) {
          value = read(in, type);
        } else if (!in.skipField(tag)) {
          break;
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "The bytes are not a valid " + typeName + " value (" + e.getMessage() + ")", e);
    }
    return value;
  }

  private static Object read(CodedInputStream in, FieldType type) throws IOException {
    switch (type) {
      case BOOL:
        return in.readBool();
      case SFIXED32:
        return in.readSFixed32();
      case SFIXED64:
        return in.readSFixed64();
      case FLOAT:
        return in.readFloat();
      case DOUBLE:
        return in.readDouble();
      case STRING:
        return in.readStringRequireUtf8();
      default:
        throw new IllegalStateException("not a wrapper field type: " + type);
    }
  }

  static void writeLittleEndian(byte[] out, int offset, long value, int bytes) {
    for (int i = 0; i < bytes; i++) {
      out[offset + i] = (byte) (value >>> (8 * i));
    }
  }

  static long readLittleEndian(byte[] in, int offset, int bytes) {
    long value = 0;
    for (int i = 0; i < bytes; i++) {
      value |= (in[offset + i] & 0xFFL) << (8 * i);
    }
    return value;
  }
}
