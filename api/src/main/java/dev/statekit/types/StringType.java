package dev.statekit.types;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat.FieldType;
import java.nio.charset.StandardCharsets;

/** {@code io.statefun.types/string}: a UTF-8 {@code string} in field 1. */
final class StringType extends BuiltInType<String> {
  static final StringType INSTANCE = new StringType();

  private StringType() {
    super("string");
  }

  // String.getBytes(int, int, byte[], int) keeps each char's low byte: deprecated because that is
  // wrong for text in general, exact for chars below 0x80, which is all it is given here.
  @Override
  @SuppressWarnings("deprecation")
  public byte[] serialize(String value) {
    if (value.isEmpty()) {
      return EMPTY;
    }
    int chars = value.length();
    if (chars < 128) {
      // Short ASCII text, the common case: its chars are its UTF-8 bytes, copied once into place
      // (not encoded into an array of their own, then copied again behind the tag and length).
      int i = 0;
      while (i < chars && value.charAt(i) < 0x80) {
        i++;
      }
      if (i == chars) {
        byte[] out = new byte[chars + 2];
        out[0] = WireFormat.LENGTH_DELIMITED_TAG;
        out[1] = (byte) chars;
        value.getBytes(0, chars, out, 2);
        return out;
      }
    }
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    int prefix = 1 + CodedOutputStream.computeUInt32SizeNoTag(utf8.length);
    byte[] out = new byte[prefix + utf8.length];
    out[0] = WireFormat.LENGTH_DELIMITED_TAG;
    int length = utf8.length;
    int i = 1;
    while ((length & ~0x7F) != 0) {
      out[i++] = (byte) ((length & 0x7F) | 0x80);
      length >>>= 7;
    }
    out[i] = (byte) length;
    System.arraycopy(utf8, 0, out, prefix, utf8.length);
    return out;
  }

  @Override
  public String deserialize(byte[] bytes) {
    if (bytes.length == 0) {
      return "";
    }
    // One-byte length prefix (strings under 128 bytes): the common case, decoded without a parser.
    if (bytes[0] == WireFormat.LENGTH_DELIMITED_TAG
        && bytes.length > 1
        && bytes[1] >= 0
        && bytes[1] == bytes.length - 2) {
      String value = new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_8);
      if (value.indexOf('\uFFFD') < 0) {
        return value;
      }
    }
    Object value = WireFormat.readField1(bytes, FieldType.STRING, typeName().asString());
    return value == null ? "" : (String) value;
  }
}
