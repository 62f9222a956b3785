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

  // Answers mostly share one egress, one state name and two value types (the state's, the egress
  // value's): the last of each is remembered with its bytes, so a write needs no lookup. A string
  // and its UTF-8 bytes are the same in every answer, so they are kept from one to the next.
  private TypeName lastEgress;
  private byte[] lastEgressNamespace;
  private byte[] lastEgressName;
  private String lastTypeName;
  private byte[] lastTypeNameBytes;
  private String otherTypeName;
  private byte[] otherTypeNameBytes;
  private String lastStateName;
  private byte[] lastStateNameBytes;

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
    if (!mutation.isDelete()) {
      typedValue(3, mutation.value().typeName(), mutation.value().value());
    }
    String name = mutation.stateName();
    if (name != lastStateName) {
      lastStateNameBytes = utf8.bytes(name);
      lastStateName = name;
    }
    bytesField(2, lastStateNameBytes);
    if (!mutation.isDelete()) {
      smallField(1, MODIFY);
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
    typedValue(3, payloads.typeName(egress), payloads.bytes(egress));
    TypeName target = egress.targetEgress();
    if (target != lastEgress) {
      lastEgressNamespace = utf8.bytes(target.namespace());
      lastEgressName = utf8.bytes(target.name());
      lastEgress = target;
    }
    bytesField(2, lastEgressName);
    bytesField(1, lastEgressNamespace);
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
    bytesField(3, value);
    smallField(2, 1);
    if (typeName != lastTypeName) {
      // Two types alternate (a state's and an egress value's): keep both, so neither evicts the
      // other.
      String evicted = lastTypeName;
      byte[] evictedBytes = lastTypeNameBytes;
      lastTypeNameBytes = typeName == otherTypeName ? otherTypeNameBytes : utf8.bytes(typeName);
      lastTypeName = typeName;
      otherTypeName = evicted;
      otherTypeNameBytes = evictedBytes;
    }
    bytesField(1, lastTypeNameBytes);
    header(field, end);
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
