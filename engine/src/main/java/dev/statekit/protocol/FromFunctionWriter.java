package dev.statekit.protocol;

import static com.google.protobuf.CodedOutputStream.computeInt64Size;
import static com.google.protobuf.CodedOutputStream.computeStringSize;
import static com.google.protobuf.CodedOutputStream.computeTagSize;
import static com.google.protobuf.CodedOutputStream.computeUInt32SizeNoTag;

import com.google.protobuf.CodedOutputStream;
import dev.statekit.function.Address;
import dev.statekit.function.DelayedMessage;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import dev.statekit.function.spi.Payloads;
import dev.statekit.invocation.DelayedAction;
import dev.statekit.invocation.InvocationEffects;
import dev.statekit.invocation.StateMutation;
import dev.statekit.types.TypeName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a {@code FromFunction} invocation result straight into an exactly sized array, without
 * building generated messages. Pass one walks the effects and records each nested message's length
 * (a slot is reserved before its children, so lengths come out in writing order) and each value's
 * bytes; pass two walks them again and writes. The output is what the generated serializer
 * produces: fields in number order, proto3 defaults omitted, invocations in batch order.
 */
final class FromFunctionWriter {
  private static final int LENGTH_DELIMITED = 2;
  private static final int MODIFY = 1;

  private final InvocationEffects[] effects;
  private final int invocations;
  private final List<StateMutation> mutations;
  private int[] sizes;
  private int sizeCount;
  private boolean writing;
  private CodedOutputStream out;
  private int sizeCursor;
  private final Utf8Cache utf8;

  // A batch's egress records and values mostly share one egress and one type: remember the last.
  private TypeName lastEgress;
  private byte[] lastEgressNamespace;
  private byte[] lastEgressName;
  private String lastTypeName;
  private byte[] lastTypeNameBytes;
  private final Payloads.Access payloads = Payloads.access();

  private FromFunctionWriter(
      InvocationEffects[] effects, int invocations, List<StateMutation> mutations, Utf8Cache utf8) {
    this.effects = effects;
    this.invocations = invocations;
    this.mutations = mutations;
    this.utf8 = utf8;
    this.sizes = new int[16 + 8 * invocations];
  }

  static byte[] result(
      InvocationEffects[] effects, int invocations, List<StateMutation> mutations, Utf8Cache utf8) {
    FromFunctionWriter writer = new FromFunctionWriter(effects, invocations, mutations, utf8);
    try {
      int response = writer.response();
      byte[] bytes = new byte[computeTagSize(100) + computeUInt32SizeNoTag(response) + response];
      writer.startWriting(bytes);
      writer.out.writeTag(100, LENGTH_DELIMITED);
      writer.response();
      writer.out.checkNoSpaceLeft();
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException("The FromFunction length was miscounted", e);
    }
  }

  private void startWriting(byte[] bytes) {
    writing = true;
    out = CodedOutputStream.newInstance(bytes);
  }

  /** Both passes walk the same tree; this returns the body size of a nested message. */
  private int response() throws IOException {
    int slot = open();
    int size = 0;
    for (StateMutation mutation : mutations) {
      size += mutation(mutation);
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

  private int mutation(StateMutation mutation) throws IOException {
    int slot = openField(1);
    int size = 0;
    if (!mutation.isDelete()) {
      size += enumField(1, MODIFY);
    }
    size += bytesField(2, utf8.bytes(mutation.stateName()));
    if (!mutation.isDelete()) {
      size += typedValue(3, mutation.value().typeName(), mutation.value().value());
    }
    return closeField(1, slot, size);
  }

  /** A {@code FromFunction.Invocation} (field 2) or the body of a delayed one (field 3). */
  private int message(int field, Message message, long delayMillis, String token)
      throws IOException {
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

  private int delayed(DelayedAction action) throws IOException {
    if (action.isCancellation()) {
      int slot = openField(3);
      int size = boolField(10) + stringField(11, action.cancelledToken());
      return closeField(3, slot, size);
    }
    DelayedMessage delayed = action.message();
    return message(
        3, delayed.message(), delayed.delay().toMillis(), delayed.cancellationToken().orElse(null));
  }

  private int egress(EgressMessage egress) throws IOException {
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

  private int address(int field, Address address) throws IOException {
    int slot = openField(field);
    int size =
        bytesField(1, utf8.bytes(address.type().namespace()))
            + bytesField(2, utf8.bytes(address.type().name()))
            + stringField(3, address.id());
    return closeField(field, slot, size);
  }

  private int typedValue(int field, String typeName, byte[] value) throws IOException {
    int slot = openField(field);
    if (typeName != lastTypeName) {
      lastTypeNameBytes = utf8.bytes(typeName);
      lastTypeName = typeName;
    }
    int size = bytesField(1, lastTypeNameBytes) + boolField(2) + bytesField(3, value);
    return closeField(field, slot, size);
  }

  // ---- primitives: size in pass one, bytes in pass two ----

  private int stringField(int field, String value) throws IOException {
    if (value.isEmpty()) {
      return 0;
    }
    if (writing) {
      out.writeString(field, value);
    }
    return computeStringSize(field, value);
  }

  /** A string already encoded, or a bytes field; empty ones are omitted, as proto3 does. */
  private int bytesField(int field, byte[] value) throws IOException {
    if (value.length == 0) {
      return 0;
    }
    if (writing) {
      out.writeTag(field, LENGTH_DELIMITED);
      out.writeUInt32NoTag(value.length);
      out.writeRawBytes(value);
    }
    return computeTagSize(field) + computeUInt32SizeNoTag(value.length) + value.length;
  }

  private int boolField(int field) throws IOException {
    if (writing) {
      out.writeBool(field, true);
    }
    return computeTagSize(field) + 1;
  }

  private int enumField(int field, int value) throws IOException {
    if (writing) {
      out.writeEnum(field, value);
    }
    return computeTagSize(field) + 1;
  }

  private int int64Field(int field, long value) throws IOException {
    if (writing) {
      out.writeInt64(field, value);
    }
    return computeInt64Size(field, value);
  }

  /** Pass one reserves the slot for a nested message's length; pass two writes tag and length. */
  private int openField(int field) throws IOException {
    if (writing) {
      out.writeTag(field, LENGTH_DELIMITED);
      out.writeUInt32NoTag(sizes[sizeCursor++]);
      return -1;
    }
    return open();
  }

  private int closeField(int field, int slot, int size) {
    close(slot, size);
    return computeTagSize(field) + computeUInt32SizeNoTag(size) + size;
  }

  private int open() throws IOException {
    if (writing) {
      out.writeUInt32NoTag(sizes[sizeCursor++]);
      return -1;
    }
    if (sizeCount == sizes.length) {
      sizes = Arrays.copyOf(sizes, sizeCount * 2);
    }
    return sizeCount++;
  }

  private int close(int slot, int size) {
    if (!writing) {
      sizes[slot] = size;
    }
    return size;
  }
}
