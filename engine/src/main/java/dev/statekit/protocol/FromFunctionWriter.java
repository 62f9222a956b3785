package dev.statekit.protocol;

import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import dev.statekit.function.spi.Payloads;
import dev.statekit.invocation.DelayedAction;
import dev.statekit.invocation.InvocationEffects;
import dev.statekit.invocation.StateMutation;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a {@code FromFunction} invocation result straight into an exactly sized array, without
 * building generated messages. Pass one walks the effects and records each nested message's length
 * (a slot is reserved before its children, so lengths come out in writing order) and each value's
 * bytes; pass two walks them again and writes. The output is what the generated serializer
 * produces: fields in number order, proto3 defaults omitted, invocations in batch order.
 *
 * <p>The bytes are written by hand rather than through protobuf's {@code CodedOutputStream}: the
 * few primitives needed (tags, varints, raw bytes) cost less inline than through its checked,
 * virtual writes, and the size table is counted exactly before pass one instead of grown.
 */
final class FromFunctionWriter {
  private static final int LENGTH_DELIMITED = 2;
  private static final int MODIFY = 1;

  private final InvocationEffects[] effects;
  private final int invocations;
  private final List<StateMutation> mutations;
  private final int[] sizes;
  private int sizeCount;
  private boolean writing;
  private byte[] out;
  private int pos;
  private int sizeCursor;
  // Strings without a cached encoding (ids, tokens), encoded in pass one and reused in pass two.
  private byte[][] encoded;
  private int encodedCount;
  private int encodedCursor;
  private final Utf8Cache utf8;

  // A batch's egress records and values mostly share one egress and one type: remember the last.
  private TypeName lastEgress;
  private byte[] lastEgressNamespace;
  private byte[] lastEgressName;
  private String lastTypeName;
  private byte[] lastTypeNameBytes;
  private String otherTypeName;
  private byte[] otherTypeNameBytes;
  private String lastStateName;
  private byte[] lastStateNameBytes;
  private final Payloads.Access payloads = Payloads.access();

  private FromFunctionWriter(
      InvocationEffects[] effects, int invocations, List<StateMutation> mutations, Utf8Cache utf8) {
    this.effects = effects;
    this.invocations = invocations;
    this.mutations = mutations;
    this.utf8 = utf8;
    this.sizes = new int[slots(effects, invocations, mutations)];
  }

  /** How many nested messages the answer has: one size slot each. */
  private static int slots(
      InvocationEffects[] effects, int invocations, List<StateMutation> mutations) {
    int slots = 1;
    for (int i = 0, n = mutations.size(); i < n; i++) {
      slots += mutations.get(i).isDelete() ? 1 : 2;
    }
    for (int i = 0; i < invocations; i++) {
      InvocationEffects invocation = effects[i];
      slots += 3 * invocation.messageCount() + 2 * invocation.egressCount();
      for (int j = 0, n = invocation.delayedCount(); j < n; j++) {
        slots += invocation.delayed(j).isCancellation() ? 1 : 3;
      }
    }
    return slots;
  }

  static byte[] result(
      InvocationEffects[] effects, int invocations, List<StateMutation> mutations, Utf8Cache utf8) {
    FromFunctionWriter writer = new FromFunctionWriter(effects, invocations, mutations, utf8);
    int response = writer.response();
    byte[] bytes = new byte[tagSize(100) + varintSize(response) + response];
    writer.writing = true;
    writer.out = bytes;
    writer.writeTag(100, LENGTH_DELIMITED);
    writer.response();
    if (writer.pos != bytes.length || writer.sizeCursor != writer.sizeCount) {
      throw new IllegalStateException(
          "The FromFunction length was miscounted: wrote "
              + writer.pos
              + " of "
              + bytes.length
              + " bytes");
    }
    return bytes;
  }

  /** Both passes walk the same tree; this returns the body size of a nested message. */
  private int response() {
    int slot = open();
    int size = 0;
    for (int i = 0, n = mutations.size(); i < n; i++) {
      size += mutation(mutations.get(i));
    }
    // Indexed loops: no iterator objects on the hot path.
    for (int i = 0; i < invocations; i++) {
      InvocationEffects invocation = effects[i];
      for (int j = 0, n = invocation.messageCount(); j < n; j++) {
        size += message(2, invocation.message(j), 0, null);
      }
    }
    for (int i = 0; i < invocations; i++) {
      InvocationEffects invocation = effects[i];
      for (int j = 0, n = invocation.delayedCount(); j < n; j++) {
        size += delayed(invocation.delayed(j));
      }
    }
    for (int i = 0; i < invocations; i++) {
      InvocationEffects invocation = effects[i];
      for (int j = 0, n = invocation.egressCount(); j < n; j++) {
        size += egress(invocation.egress(j));
      }
    }
    return close(slot, size);
  }

  private int mutation(StateMutation mutation) {
    int slot = openField(1);
    int size = 0;
    if (!mutation.isDelete()) {
      size += enumField(1, MODIFY);
    }
    String name = mutation.stateName();
    if (name != lastStateName) {
      lastStateNameBytes = utf8.bytes(name);
      lastStateName = name;
    }
    size += bytesField(2, lastStateNameBytes);
    if (!mutation.isDelete()) {
      size += typedValue(3, mutation.value().typeName(), mutation.value().value());
    }
    return closeField(1, slot, size);
  }

  /** A {@code FromFunction.Invocation} (field 2) or the body of a delayed one (field 3). */
  private int message(int field, Message message, long delayMillis, String token) {
    int slot = openField(field);
    int size = 0;
    if (field == 3 && delayMillis != 0) {
      size += int64Field(1, delayMillis);
    }
    int targetField = field == 3 ? 2 : 1;
    size += address(targetField, message.targetAddress());
    size += typedValue(targetField + 1, payloads.typeName(message), payloads.bytes(message));
    if (token != null) {
      size += stringField(11, token);
    }
    return closeField(field, slot, size);
  }

  private int delayed(DelayedAction action) {
    if (action.isCancellation()) {
      int slot = openField(3);
      int size = boolField(10) + stringField(11, action.cancelledToken());
      return closeField(3, slot, size);
    }
    DelayedMessage delayed = action.message();
    return message(
        3, delayed.message(), delayed.delay().toMillis(), delayed.cancellationToken().orElse(null));
  }

  private int egress(EgressMessage egress) {
    int slot = openField(4);
    TypeName target = egress.targetEgress();
    if (target != lastEgress) {
      lastEgressNamespace = utf8.bytes(target.namespace());
      lastEgressName = utf8.bytes(target.name());
      lastEgress = target;
    }
    int size = bytesField(1, lastEgressNamespace) + bytesField(2, lastEgressName);
    size += typedValue(3, payloads.typeName(egress), payloads.bytes(egress));
    return closeField(4, slot, size);
  }

  private int address(int field, Address address) {
    int slot = openField(field);
    int size =
        bytesField(1, utf8.bytes(address.type().namespace()))
            + bytesField(2, utf8.bytes(address.type().name()))
            + stringField(3, address.id());
    return closeField(field, slot, size);
  }

  private int typedValue(int field, String typeName, byte[] value) {
    int slot = openField(field);
    if (typeName != lastTypeName) {
      // An answer mostly alternates between two types (a state's and an egress value's): keep
      // both, so neither evicts the other.
      String evicted = lastTypeName;
      byte[] evictedBytes = lastTypeNameBytes;
      lastTypeNameBytes = typeName == otherTypeName ? otherTypeNameBytes : utf8.bytes(typeName);
      lastTypeName = typeName;
      otherTypeName = evicted;
      otherTypeNameBytes = evictedBytes;
    }
    int size = bytesField(1, lastTypeNameBytes) + boolField(2) + bytesField(3, value);
    return closeField(field, slot, size);
  }

  // ---- primitives: size in pass one, bytes in pass two ----

  /** A string with no cached encoding; encoded once, in pass one. */
  private int stringField(int field, String value) {
    if (value.isEmpty()) {
      return 0;
    }
    if (writing) {
      return bytesField(field, encoded[encodedCursor++]);
    }
    // String.getBytes replaces an unpaired surrogate with '?', as protobuf-java's writer does.
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    if (encoded == null) {
      encoded = new byte[4][];
    } else if (encodedCount == encoded.length) {
      encoded = Arrays.copyOf(encoded, encodedCount * 2);
    }
    encoded[encodedCount++] = bytes;
    return bytesField(field, bytes);
  }

  /** A string already encoded, or a bytes field; empty ones are omitted, as proto3 does. */
  private int bytesField(int field, byte[] value) {
    int length = value.length;
    if (length == 0) {
      return 0;
    }
    if (writing) {
      writeTag(field, LENGTH_DELIMITED);
      writeVarint(length);
      System.arraycopy(value, 0, out, pos, length);
      pos += length;
    }
    return tagSize(field) + varintSize(length) + length;
  }

  private int boolField(int field) {
    return enumField(field, 1);
  }

  private int enumField(int field, int value) {
    if (writing) {
      writeTag(field, 0);
      out[pos++] = (byte) value;
    }
    return tagSize(field) + 1;
  }

  private int int64Field(int field, long value) {
    if (writing) {
      writeTag(field, 0);
      writeVarint64(value);
    }
    return tagSize(field) + varint64Size(value);
  }

  /** Pass one reserves the slot for a nested message's length; pass two writes tag and length. */
  private int openField(int field) {
    if (writing) {
      writeTag(field, LENGTH_DELIMITED);
      writeVarint(sizes[sizeCursor++]);
      return -1;
    }
    return open();
  }

  private int closeField(int field, int slot, int size) {
    close(slot, size);
    return tagSize(field) + varintSize(size) + size;
  }

  private int open() {
    if (writing) {
      writeVarint(sizes[sizeCursor++]);
      return -1;
    }
    return sizeCount++;
  }

  private int close(int slot, int size) {
    if (!writing) {
      sizes[slot] = size;
    }
    return size;
  }

  private void writeTag(int field, int wireType) {
    writeVarint((field << 3) | wireType);
  }

  /** An unsigned 32-bit varint (tags and lengths are never negative). */
  private void writeVarint(int value) {
    while ((value & ~0x7F) != 0) {
      out[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out[pos++] = (byte) value;
  }

  /** An int64 as protobuf writes it: a negative one takes ten bytes. */
  private void writeVarint64(long value) {
    while ((value & ~0x7FL) != 0) {
      out[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out[pos++] = (byte) value;
  }

  private static int tagSize(int field) {
    return varintSize(field << 3);
  }

  static int varintSize(int value) {
    // Bits used, in groups of seven; zero takes one byte.
    return (31 - Integer.numberOfLeadingZeros(value | 1)) / 7 + 1;
  }

  static int varint64Size(long value) {
    return (63 - Long.numberOfLeadingZeros(value | 1)) / 7 + 1;
  }
}
