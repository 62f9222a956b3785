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
 * Writes a {@code FromFunction} invocation result in one pass, back to front, into a buffer kept by
 * the thread, then copies it out exactly sized. Written from the end, a nested message's length is
 * known when its header is due (its body is already written), so no pass is spent counting sizes.
 * The output is what the generated serializer produces: fields in number order, proto3 defaults
 * omitted, invocations in batch order.
 *
 * <p>The bytes are written by hand rather than through protobuf's {@code CodedOutputStream}: the
 * few primitives needed (tags, varints, raw bytes) cost less inline than through its checked,
 * virtual writes. No user code runs while an answer is written, so one writer per thread is never
 * entered twice.
 */
final class FromFunctionWriter {
  private static final int LENGTH_DELIMITED = 2;
  private static final int MODIFY = 1;
  private static final int FIRST_CAPACITY = 512;

  /** A buffer grown past this by a large answer is dropped after it, not kept by the thread. */
  private static final int KEPT_CAPACITY = 256 * 1024;

  private static final ThreadLocal<FromFunctionWriter> WRITERS =
      ThreadLocal.withInitial(FromFunctionWriter::new);

  private final Payloads.Access payloads = Payloads.access();
  private byte[] buf = new byte[FIRST_CAPACITY];
  // The answer so far is buf[pos, buf.length).
  private int pos;
  private Utf8Cache utf8;

  // The bytes of an answer that only depend on a name are the same in every answer: a typed value's
  // type name and has_value, an egress record's egress, a mutation's kind and state name. Each is
  // kept encoded with its neighbouring tags ("head"), so writing one is one copy, not a field each.
  private final HeadMemo typedValueHeads = new HeadMemo();
  private final HeadMemo egressHeads = new HeadMemo();
  private final HeadMemo modifyHeads = new HeadMemo();
  private final HeadMemo egressTypedValueHeads = new HeadMemo();

  private FromFunctionWriter() {}

  static byte[] result(
      InvocationEffects[] effects, int invocations, List<StateMutation> mutations, Utf8Cache utf8) {
    FromFunctionWriter writer = WRITERS.get();
    writer.utf8 = utf8;
    writer.pos = writer.buf.length;
    try {
      writer.response(effects, invocations, mutations);
      return Arrays.copyOfRange(writer.buf, writer.pos, writer.buf.length);
    } finally {
      writer.utf8 = null;
      if (writer.buf.length > KEPT_CAPACITY) {
        writer.buf = new byte[FIRST_CAPACITY];
      }
    }
  }

  /** The {@code invocation_result} (field 100): every field in reverse, the last one first. */
  private void response(
      InvocationEffects[] effects, int invocations, List<StateMutation> mutations) {
    int end = written();
    for (int i = invocations - 1; i >= 0; i--) {
      InvocationEffects invocation = effects[i];
      for (int j = invocation.egressCount() - 1; j >= 0; j--) {
        egress(invocation.egress(j));
      }
    }
    for (int i = invocations - 1; i >= 0; i--) {
      InvocationEffects invocation = effects[i];
      for (int j = invocation.delayedCount() - 1; j >= 0; j--) {
        delayed(invocation.delayed(j));
      }
    }
    for (int i = invocations - 1; i >= 0; i--) {
      InvocationEffects invocation = effects[i];
      for (int j = invocation.messageCount() - 1; j >= 0; j--) {
        message(2, invocation.message(j), 0, null);
      }
    }
    for (int i = mutations.size() - 1; i >= 0; i--) {
      mutation(mutations.get(i));
    }
    header(100, end);
  }

  private void mutation(StateMutation mutation) {
    int end = written();
    String name = mutation.stateName();
    if (mutation.isDelete()) {
      bytesField(2, utf8.bytes(name));
    } else {
      typedValueBody(mutation.value().typeName(), mutation.value().value());
      byte[] head = modifyHeads.get(name);
      if (head == null) {
        head = modifyHeads.put(name, modifyHead(utf8.bytes(name)));
      }
      lengthAndHead(written() - end, head);
    }
    header(1, end);
  }

  /** A {@code FromFunction.Invocation} (field 2) or the body of a delayed one (field 3). */
  private void message(int field, Message message, long delayMillis, String token) {
    int end = written();
    if (token != null) {
      stringField(11, token);
    }
    int targetField = field == 3 ? 2 : 1;
    typedValue(targetField + 1, payloads.typeName(message), payloads.bytes(message));
    address(targetField, message.targetAddress());
    if (field == 3 && delayMillis != 0) {
      int64Field(1, delayMillis);
    }
    header(field, end);
  }

  private void delayed(DelayedAction action) {
    if (action.isCancellation()) {
      int end = written();
      stringField(11, action.cancelledToken());
      smallField(10, 1);
      header(3, end);
      return;
    }
    DelayedMessage delayed = action.message();
    message(
        3, delayed.message(), delayed.delay().toMillis(), delayed.cancellationToken().orElse(null));
  }

  private void egress(EgressMessage egress) {
    int end = written();
    String typeName = payloads.typeName(egress);
    byte[] value = payloads.bytes(egress);
    TypeName target = egress.targetEgress();
    int length = value.length;
    byte[] typedHead = typedValueHead(typeName);
    int typedLength = typedHead.length + 1 + length;
    if (length != 0 && typedLength < 128) {
      // Short enough that both lengths take one byte: the egress head, the typed value's length
      // and the typed value's head are one copy, the length set in place.
      byte[] both = egressTypedValueHeads.get(target, typeName);
      if (both == null) {
        both = egressTypedValueHeads.put(target, typeName, join(egressHead(target), typedHead));
      }
      room(length + both.length + 1);
      put(value, length);
      buf[--pos] = (byte) length;
      put(both, both.length);
      buf[pos + both.length - typedHead.length - 1] = (byte) typedLength;
    } else {
      typedValueBody(typeName, value);
      lengthAndHead(written() - end, egressHead(target));
    }
    header(4, end);
  }

  private void address(int field, Address address) {
    int end = written();
    stringField(3, address.id());
    bytesField(2, utf8.bytes(address.type().name()));
    bytesField(1, utf8.bytes(address.type().namespace()));
    header(field, end);
  }

  private void typedValue(int field, String typeName, byte[] value) {
    int end = written();
    typedValueBody(typeName, value);
    header(field, end);
  }

  /** A {@code TypedValue}'s fields: its head, then the value as field 3 unless it is empty. */
  private void typedValueBody(String typeName, byte[] value) {
    byte[] head = typedValueHead(typeName);
    int length = value.length;
    if (length == 0) {
      // proto3 omits an empty bytes field: the head without its last byte, field 3's tag.
      room(head.length);
      put(head, head.length - 1);
      return;
    }
    room(length);
    put(value, length);
    lengthAndHead(length, head);
  }

  // ---- heads: the constant bytes in front of a length, its field's tag last ----

  private byte[] typedValueHead(String typeName) {
    byte[] head = typedValueHeads.get(typeName);
    if (head == null) {
      head = typedValueHeads.put(typeName, typedValueHead(utf8.bytes(typeName)));
    }
    return head;
  }

  private byte[] egressHead(TypeName egress) {
    byte[] head = egressHeads.get(egress);
    if (head == null) {
      head = egressHeads.put(egress, encodeEgressHead(egress));
    }
    return head;
  }

  /** An egress head, a byte for the typed value's length, and the typed value's head. */
  private static byte[] join(byte[] egressHead, byte[] typedValueHead) {
    byte[] both = Arrays.copyOf(egressHead, egressHead.length + 1 + typedValueHead.length);
    System.arraycopy(typedValueHead, 0, both, egressHead.length + 1, typedValueHead.length);
    return both;
  }

  /** Type name (1, omitted if empty), has_value true (2), and the tag of the value (3). */
  private static byte[] typedValueHead(byte[] typeName) {
    byte[] head = new byte[stringFieldSize(typeName) + 3];
    int p = putStringField(head, 0, 1, typeName);
    head[p++] = 2 << 3;
    head[p++] = 1;
    head[p] = (3 << 3) | LENGTH_DELIMITED;
    return head;
  }

  /** Egress namespace (1) and name (2), and the tag of the typed value (3). */
  private byte[] encodeEgressHead(TypeName egress) {
    byte[] namespace = utf8.bytes(egress.namespace());
    byte[] name = utf8.bytes(egress.name());
    byte[] head = new byte[stringFieldSize(namespace) + stringFieldSize(name) + 1];
    int p = putStringField(head, 0, 1, namespace);
    p = putStringField(head, p, 2, name);
    head[p] = (3 << 3) | LENGTH_DELIMITED;
    return head;
  }

  /** Mutation type MODIFY (1), state name (2, omitted if empty), and the tag of the value (3). */
  private static byte[] modifyHead(byte[] stateName) {
    byte[] head = new byte[stringFieldSize(stateName) + 3];
    head[0] = 1 << 3;
    head[1] = MODIFY;
    int p = putStringField(head, 2, 2, stateName);
    head[p] = (3 << 3) | LENGTH_DELIMITED;
    return head;
  }

  private static int stringFieldSize(byte[] value) {
    return value.length == 0 ? 0 : 1 + varintSize(value.length) + value.length;
  }

  /** A string field written forwards into a head (field numbers here fit a one-byte tag). */
  private static int putStringField(byte[] head, int p, int field, byte[] value) {
    if (value.length == 0) {
      return p;
    }
    head[p++] = (byte) ((field << 3) | LENGTH_DELIMITED);
    int length = value.length;
    while ((length & ~0x7F) != 0) {
      head[p++] = (byte) ((length & 0x7F) | 0x80);
      length >>>= 7;
    }
    head[p++] = (byte) length;
    System.arraycopy(value, 0, head, p, value.length);
    return p + value.length;
  }

  // ---- primitives, each written before (in front of) what is already there ----

  /** How many bytes are written; stays valid when the buffer grows. */
  private int written() {
    return buf.length - pos;
  }

  /** The tag and length of a nested message whose body is what was written since {@code end}. */
  private void header(int field, int end) {
    int length = written() - end;
    room(10);
    putVarint(length);
    putVarint((field << 3) | LENGTH_DELIMITED);
  }

  /** A string with no cached encoding (an id, a token); empty ones are omitted, as proto3 does. */
  private void stringField(int field, String value) {
    if (!value.isEmpty()) {
      // String.getBytes replaces an unpaired surrogate with '?', as protobuf-java's writer does.
      bytesField(field, value.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** A string already encoded, or a bytes field; empty ones are omitted, as proto3 does. */
  private void bytesField(int field, byte[] value) {
    int length = value.length;
    if (length == 0) {
      return;
    }
    room(length);
    pos -= length;
    System.arraycopy(value, 0, buf, pos, length);
    room(10);
    putVarint(length);
    putVarint((field << 3) | LENGTH_DELIMITED);
  }

  /** The length of what follows, and in front of it a head that ends with the length's tag. */
  private void lengthAndHead(int length, byte[] head) {
    room(head.length + 5);
    putVarint(length);
    put(head, head.length);
  }

  /** The first {@code length} bytes of {@code bytes}; room is already made. */
  private void put(byte[] bytes, int length) {
    pos -= length;
    System.arraycopy(bytes, 0, buf, pos, length);
  }

  /** A bool or an enum field with a value under 128. */
  private void smallField(int field, int value) {
    room(6);
    buf[--pos] = (byte) value;
    putVarint(field << 3);
  }

  private void int64Field(int field, long value) {
    room(15);
    int size = varint64Size(value);
    pos -= size;
    int p = pos;
    while ((value & ~0x7FL) != 0) {
      buf[p++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buf[p] = (byte) value;
    putVarint(field << 3);
  }

  /** An unsigned 32-bit varint (tags and lengths are never negative); room is already made. */
  private void putVarint(int value) {
    if ((value & ~0x7F) == 0) {
      buf[--pos] = (byte) value;
      return;
    }
    pos -= varintSize(value);
    int p = pos;
    while ((value & ~0x7F) != 0) {
      buf[p++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buf[p] = (byte) value;
  }

  /**
   * Makes room for {@code bytes} more in front of what is written, moving it to a larger buffer.
   */
  private void room(int bytes) {
    if (pos < bytes) {
      int used = written();
      long wanted = Math.max(2L * buf.length, (long) used + bytes + FIRST_CAPACITY);
      if (wanted > Integer.MAX_VALUE - 8) {
        if ((long) used + bytes > Integer.MAX_VALUE - 8) {
          throw new IllegalStateException(
              "The answer is larger than an array can hold; send smaller batches or values");
        }
        wanted = Integer.MAX_VALUE - 8;
      }
      byte[] larger = new byte[(int) wanted];
      System.arraycopy(buf, pos, larger, larger.length - used, used);
      buf = larger;
      pos = larger.length - used;
    }
  }

  static int varintSize(int value) {
    // Bits used, in groups of seven; zero takes one byte.
    return (31 - Integer.numberOfLeadingZeros(value | 1)) / 7 + 1;
  }

  static int varint64Size(long value) {
    return (63 - Long.numberOfLeadingZeros(value | 1)) / 7 + 1;
  }
}
