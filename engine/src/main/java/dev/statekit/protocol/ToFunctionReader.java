package dev.statekit.protocol;

import dev.statekit.invocation.TypedValue;
import java.nio.charset.CharacterCodingException;
import java.util.Arrays;

/**
 * Reads a {@code ToFunction} straight from its bytes into plain values, without building the
 * generated message tree: the hot path of every request. Follows protobuf's parsing rules (fields
 * in any order, unknown fields skipped, a repeated singular field overwrites and a repeated message
 * merges, a field with an unexpected wire type is unknown).
 */
final class ToFunctionReader {
  private static final int VARINT = 0;
  private static final int FIXED64 = 1;
  private static final int LENGTH_DELIMITED = 2;
  private static final int START_GROUP = 3;
  private static final int END_GROUP = 4;
  private static final int FIXED32 = 5;

  /**
   * protobuf-java's recursion limit, which the SDK parses with: messages and groups count against
   * it together, so a group may nest as deep as the limit less the messages it is in.
   */
  private static final int MAX_DEPTH = 100;

  // How many messages deep each message the reader reads is, from the ToFunction (0).
  private static final int IN_TO_FUNCTION = 0;
  private static final int IN_BATCH = 1;
  private static final int IN_BATCH_ENTRY = 2; // the target, a state, an invocation
  private static final int IN_ENTRY_PART = 3; // a caller, a typed value
  private static final byte[] EMPTY = new byte[0];

  // The roles of interned strings (see StringInterner): each keeps its own last string.
  private static final int TARGET_NAMESPACE = 0;
  private static final int TARGET_TYPE = 1;
  private static final int CALLER_NAMESPACE = 2;
  private static final int CALLER_TYPE = 3;
  private static final int STATE_NAME = 4;
  private static final int STATE_TYPE = 5;
  private static final int ARGUMENT_TYPE = 6;

  /**
   * One reader per thread, reused: its arrays are then sized for the batches the thread sees and a
   * request allocates none of them. Taken by {@link #borrow} and given back by {@link #release}; a
   * request handled inside another on the same thread (a function calling the handler) gets a fresh
   * one.
   */
  private static final ThreadLocal<ToFunctionReader> READERS =
      ThreadLocal.withInitial(ToFunctionReader::new);

  /** Arrays grown past this by a large batch are dropped when the reader is given back. */
  private static final int KEPT_LENGTH = 1024;

  /**
   * The fewest bytes a runnable invocation (see {@link RequestDecoding#isRunnable}) takes: its tag
   * and length, its argument's, its type name's, a namespace/name of three bytes, and has_value.
   */
  private static final int RUNNABLE_INVOCATION_BYTES = 11;

  /** The fewest bytes a kept state takes: its tag and length, its name's, a name of one byte. */
  private static final int KEPT_STATE_BYTES = 5;

  private byte[] in;
  private StringInterner strings;
  private int pos;
  private boolean borrowed;

  boolean hasBatch;
  String[] target;

  // The states kept: all but those named "", which no function declares (a state's name starts
  // with a letter), so the handler would offer them in vain. A state's value is read again from
  // where its PersistedValue's length starts, by stateValue, only for a state the handler takes.
  int stateCount;
  String[] stateNames = new String[4];
  private int[] statePositions = new int[4];

  // Every invocation is read (the request must be protobuf throughout) and counted, but only those
  // up to the first the handler refuses to run (see RequestDecoding.isRunnable) are kept: the
  // handler refuses the batch there, and no answer depends on what comes after. So a forged batch
  // of millions of empty invocations costs the arrays of one.
  int invocationCount;
  int keptInvocationCount;
  private boolean keepingInvocations;
  String[][] callers = new String[4][];

  // Each argument's type, as an index into the batch's distinct types (its arguments mostly share
  // one), and its value, as a range of the request's bytes that argumentValue copies out. The
  // reader is long-lived: a reference stored into it costs a memory fence in G1's write barrier,
  // an int costs nothing, so an invocation stores ints.
  private int[] argumentTypeIndexes = new int[4];
  private int[] argumentStarts = new int[4];
  private int[] argumentEnds = new int[4];
  private boolean[] argumentsSet = new boolean[4];
  private String[] argumentTypes = new String[4];
  private int argumentTypeCount;

  // The last argument type name, compared in place: a batch's arguments usually share one. Only
  // that role is remembered here (the interner keeps the last string of each role): a string
  // stored into the long-lived reader costs a fence in the write barrier.
  private int lastStringStart = -1;
  private int lastStringLength;
  private String lastString;

  // The TypedValue being read (its type name is returned by readTypedValue).
  private boolean valuePresent;
  private int valueStart;
  private int valueEnd;

  private ToFunctionReader() {}

  /**
   * Parses the request into a reader of its own.
   *
   * @throws MalformedRequestException if the bytes are not protobuf (cut short, a length past the
   *     end, a bad varint or wire type, invalid UTF-8)
   */
  static ToFunctionReader read(byte[] bytes, StringInterner strings) {
    ToFunctionReader reader = new ToFunctionReader();
    reader.parse(bytes, strings);
    return reader;
  }

  /**
   * Parses the request into the thread's reader; {@link #release} it when done with what it read.
   *
   * @throws MalformedRequestException as {@link #read} does (the reader is then already released)
   */
  static ToFunctionReader borrow(byte[] bytes, StringInterner strings) {
    ToFunctionReader reader = READERS.get();
    if (reader.borrowed) {
      reader = new ToFunctionReader();
    }
    reader.borrowed = true;
    try {
      reader.parse(bytes, strings);
    } catch (RuntimeException | Error e) {
      reader.release();
      throw e;
    }
    return reader;
  }

  /**
   * A copy of state {@code index}'s value, or {@code null} if it has none, read again from the
   * request (which was read once already, so is well-formed).
   */
  TypedValue stateValue(int index) {
    pos = statePositions[index];
    int end = readLengthEnd(in.length);
    String type = "";
    startValue();
    try {
      while (pos < end) {
        int tag = readTag(end);
        if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
          type = readTypedValue(readLengthEnd(end), STATE_TYPE, type);
        } else {
          skipField(tag, end, IN_BATCH_ENTRY);
        }
      }
    } catch (CharacterCodingException e) {
      throw malformed("a string field is not valid UTF-8");
    }
    return valuePresent ? new TypedValue(type, copy(valueStart, valueEnd)) : null;
  }

  /** The type name of invocation {@code index}'s argument. */
  String argumentType(int index) {
    return argumentTypes[argumentTypeIndexes[index]];
  }

  /**
   * Whether invocation {@code index}'s argument sets {@code has_value}: the SDK runs no message
   * without one.
   */
  boolean argumentSet(int index) {
    return argumentsSet[index];
  }

  /** A copy of invocation {@code index}'s argument value, made while the request is still read. */
  byte[] argumentValue(int index) {
    return copy(argumentStarts[index], argumentEnds[index]);
  }

  /** Forgets the request (its bytes and values are not kept alive by the thread). */
  void release() {
    Arrays.fill(stateNames, 0, stateCount, null);
    Arrays.fill(callers, 0, keptInvocationCount, null);
    Arrays.fill(argumentTypes, 0, argumentTypeCount, null);
    if (callers.length > KEPT_LENGTH) {
      callers = new String[4][];
      argumentTypeIndexes = new int[4];
      argumentStarts = new int[4];
      argumentEnds = new int[4];
      argumentsSet = new boolean[4];
    }
    if (argumentTypes.length > KEPT_LENGTH) {
      argumentTypes = new String[4];
    }
    if (stateNames.length > KEPT_LENGTH) {
      stateNames = new String[4];
      statePositions = new int[4];
    }
    in = null;
    strings = null;
    target = null;
    lastString = null;
    borrowed = false;
  }

  private void parse(byte[] bytes, StringInterner interner) {
    in = bytes;
    strings = interner;
    pos = 0;
    hasBatch = false;
    target = null;
    stateCount = 0;
    invocationCount = 0;
    keptInvocationCount = 0;
    keepingInvocations = true;
    argumentTypeCount = 0;
    lastStringStart = -1;
    lastStringLength = 0;
    lastString = null;
    try {
      readToFunction();
    } catch (CharacterCodingException e) {
      throw malformed("a string field is not valid UTF-8");
    }
  }

  private void readToFunction() throws CharacterCodingException {
    int end = in.length;
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((100 << 3) | LENGTH_DELIMITED)) {
        int batchEnd = readLengthEnd(end);
        hasBatch = true;
        readBatch(batchEnd);
      } else {
        skipField(tag, end, IN_TO_FUNCTION);
      }
    }
  }

  private void readBatch(int end) throws CharacterCodingException {
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        target = readAddress(readLengthEnd(end), target, TARGET_NAMESPACE, IN_BATCH_ENTRY);
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        int position = pos;
        readPersistedValue(readLengthEnd(end), position);
      } else if (tag == ((3 << 3) | LENGTH_DELIMITED)) {
        if (keepingInvocations) {
          readInvocation(readLengthEnd(end));
        } else {
          skipInvocation(readLengthEnd(end));
        }
        invocationCount++;
      } else {
        skipField(tag, end, IN_BATCH);
      }
    }
  }

  /**
   * Namespace, type, id; merged into {@code into} as the reference SDK's protobuf (3.7) merges a
   * repeated message: the piece is read whole, then its non-empty parts replace those before.
   */
  private String[] readAddress(int end, String[] into, int namespaceRole, int depth)
      throws CharacterCodingException {
    String[] piece = {"", "", ""};
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        piece[0] = readString(end, namespaceRole);
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        piece[1] = readString(end, namespaceRole + 1);
      } else if (tag == ((3 << 3) | LENGTH_DELIMITED)) {
        piece[2] = readString(end, -1);
      } else {
        skipField(tag, end, depth);
      }
    }
    if (into == null) {
      return piece;
    }
    for (int i = 0; i < 3; i++) {
      if (!piece[i].isEmpty()) {
        into[i] = piece[i];
      }
    }
    return into;
  }

  /** Reads a state whose length starts at {@code position}, keeping its name and position. */
  private void readPersistedValue(int end, int position) throws CharacterCodingException {
    String name = "";
    String type = "";
    startValue();
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        name = readString(end, STATE_NAME);
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        type = readTypedValue(readLengthEnd(end), STATE_TYPE, type);
      } else {
        skipField(tag, end, IN_BATCH_ENTRY);
      }
    }
    if (name.isEmpty()) {
      return;
    }
    if (stateCount == stateNames.length) {
      int size = grownLength(stateCount, 4, (in.length - pos) / KEPT_STATE_BYTES);
      stateNames = Arrays.copyOf(stateNames, size);
      statePositions = Arrays.copyOf(statePositions, size);
    }
    stateNames[stateCount] = name;
    statePositions[stateCount] = position;
    stateCount++;
  }

  private void readInvocation(int end) throws CharacterCodingException {
    String[] caller = null;
    String type = "";
    startValue();
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        caller = readAddress(readLengthEnd(end), caller, CALLER_NAMESPACE, IN_ENTRY_PART);
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        type = readTypedValue(readLengthEnd(end), ARGUMENT_TYPE, type);
      } else {
        skipField(tag, end, IN_BATCH_ENTRY);
      }
    }
    // An all-empty caller is none, as the reference SDK reads it: a message from an ingress.
    if (caller != null && caller[0].isEmpty() && caller[1].isEmpty() && caller[2].isEmpty()) {
      caller = null;
    }
    int index = keptInvocationCount;
    if (index == callers.length) {
      // Grown fourfold: a batch of ten copies the arrays once, not twice. After this one come the
      // runnable ones the rest of the request can hold, and one more the handler refuses.
      int size = grownLength(index, 4, 1 + (in.length - pos) / RUNNABLE_INVOCATION_BYTES);
      callers = Arrays.copyOf(callers, size);
      argumentTypeIndexes = Arrays.copyOf(argumentTypeIndexes, size);
      argumentStarts = Arrays.copyOf(argumentStarts, size);
      argumentEnds = Arrays.copyOf(argumentEnds, size);
      argumentsSet = Arrays.copyOf(argumentsSet, size);
    }
    callers[index] = caller;
    argumentTypeIndexes[index] = typeIndex(type);
    argumentStarts[index] = valueStart;
    argumentEnds[index] = valueEnd;
    argumentsSet[index] = valuePresent;
    keptInvocationCount = index + 1;
    keepingInvocations = RequestDecoding.isRunnable(type, valuePresent, caller);
  }

  /**
   * Reads an invocation that is not kept as {@link #readInvocation} reads one, refusing what it
   * refuses, but keeping and decoding nothing.
   */
  private void skipInvocation(int end) throws CharacterCodingException {
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        skipStrings(readLengthEnd(end), 3);
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        // has_value and value are skipped as unknown fields of their wire types would be, which
        // is how readTypedValue reads them too.
        skipStrings(readLengthEnd(end), 1);
      } else {
        skipField(tag, end, IN_BATCH_ENTRY);
      }
    }
  }

  /**
   * Skips a message whose string fields are fields 1 to {@code strings} (an address, a typed
   * value), checking they are UTF-8; other fields are skipped as unknown ones.
   */
  private void skipStrings(int end, int strings) throws CharacterCodingException {
    while (pos < end) {
      int tag = readTag(end);
      if ((tag & 7) == LENGTH_DELIMITED && tag >>> 3 <= strings) {
        int stringEnd = readLengthEnd(end);
        StringInterner.checkUtf8(in, pos, stringEnd - pos);
        pos = stringEnd;
      } else {
        skipField(tag, end, IN_ENTRY_PART);
      }
    }
  }

  /**
   * The length to grow full arrays of {@code length} entries to, for one more entry and at most
   * {@code room} after it (what the rest of the request can hold): {@code factor} times longer, or
   * just the length needed if that is less, so a forged request of many tiny entries gets arrays
   * the size of its entries, not up to {@code factor} times that. A room within twice the growth is
   * taken at once: the arrays are not copied once more near the end of a batch.
   */
  private static int grownLength(int length, int factor, int room) {
    long most = (long) length + 1 + room;
    return most <= 2L * factor * length ? (int) most : length * factor;
  }

  /** The index of {@code type} among the batch's argument types, added if new. */
  private int typeIndex(String type) {
    int last = argumentTypeCount - 1;
    if (last >= 0 && argumentTypes[last] == type) {
      return last;
    }
    if (argumentTypeCount == argumentTypes.length) {
      // A kept invocation adds one type at most: the room is that of the invocations.
      argumentTypes =
          Arrays.copyOf(
              argumentTypes,
              grownLength(argumentTypeCount, 4, 1 + (in.length - pos) / RUNNABLE_INVOCATION_BYTES));
    }
    argumentTypes[argumentTypeCount] = type;
    return argumentTypeCount++;
  }

  private void startValue() {
    valuePresent = false;
    valueStart = 0;
    valueEnd = 0;
  }

  /** The request's bytes from {@code start} to {@code end}, in an array of their own. */
  private byte[] copy(int start, int end) {
    return start == end ? EMPTY : Arrays.copyOfRange(in, start, end);
  }

  /**
   * Typename, has_value, value, into {@code type} and the value's range. A repeated TypedValue is
   * merged as the reference SDK's protobuf (3.7) merges one: the piece is read whole, then what it
   * sets to other than the default (a typename, {@code has_value} true, a non-empty value) replaces
   * what came before.
   *
   * @return the type name
   */
  private String readTypedValue(int end, int typeRole, String type)
      throws CharacterCodingException {
    int startBefore = valueStart;
    int endBefore = valueEnd;
    String usual = readUsualTypedValue(end, typeRole);
    if (usual != null) {
      if (valueStart == valueEnd) {
        valueStart = startBefore;
        valueEnd = endBefore;
      }
      return usual.isEmpty() ? type : usual;
    }
    String pieceType = "";
    boolean piecePresent = false;
    int pieceStart = 0;
    int pieceEnd = 0;
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        pieceType = readString(end, typeRole);
      } else if (tag == ((2 << 3) | VARINT)) {
        piecePresent = readVarint64(end) != 0;
      } else if (tag == ((3 << 3) | LENGTH_DELIMITED)) {
        pieceEnd = readLengthEnd(end);
        pieceStart = pos;
        pos = pieceEnd;
      } else {
        skipField(tag, end, IN_ENTRY_PART);
      }
    }
    if (piecePresent) {
      valuePresent = true;
    }
    if (pieceEnd > pieceStart) {
      valueStart = pieceStart;
      valueEnd = pieceEnd;
    }
    return pieceType.isEmpty() ? type : pieceType;
  }

  /**
   * Reads the typed value if it is laid out as the runtime and every SDK write one with a short
   * name and value: {@code 0A len typename 10 01 1A len value}, nothing else, each length one byte.
   * Those bytes are checked one by one, in place of the general loop's tags and varints, and read
   * as the loop would read them.
   *
   * @return the type name; {@code null}, having read nothing, for any other layout
   */
  private String readUsualTypedValue(int end, int typeRole) throws CharacterCodingException {
    byte[] in = this.in;
    int p = pos;
    if (end - p < 6 || in[p] != ((1 << 3) | LENGTH_DELIMITED)) {
      return null;
    }
    int typeLength = in[p + 1];
    int typeStart = p + 2;
    int q = typeStart + typeLength;
    if (typeLength < 0
        || end - q < 4
        || in[q] != ((2 << 3) | VARINT)
        || in[q + 1] != 1
        || in[q + 2] != ((3 << 3) | LENGTH_DELIMITED)
        || in[q + 3] < 0
        || q + 4 + in[q + 3] != end) {
      return null;
    }
    String type = string(typeStart, typeLength, typeRole);
    valuePresent = true;
    valueStart = q + 4;
    valueEnd = end;
    pos = end;
    return type;
  }

  // ---- wire primitives ----

  /**
   * A tag, as protobuf-java reads one: a varint of up to 10 bytes whose low 32 bits count (the rest
   * are dropped, not refused), with a field number above 0.
   */
  private int readTag(int end) {
    // Every tag this reader knows fits one byte, and one of 8 or more has a valid field number.
    int p = pos;
    if (p < end && in[p] >= 8) {
      pos = p + 1;
      return in[p];
    }
    int tag = (int) readVarint64(end);
    if (tag >>> 3 == 0) {
      throw malformed("a field number is invalid");
    }
    return tag;
  }

  /** A varint that must end before {@code end}, the end of the message it is in. */
  private long readVarint64(int end) {
    // Most numbers here (tags, lengths, has_value) take one byte: no loop for them.
    int p = pos;
    if (p < end && in[p] >= 0) {
      pos = p + 1;
      return in[p];
    }
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) {
        throw malformed("the message ends inside a number");
      }
      byte b = in[pos++];
      value |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        // protobuf-java (and so the SDK) reads bit 63 of a ten-byte varint as set whatever the
        // tenth byte holds (its fast path keeps the ninth byte's continuation bit): so must we, or
        // a has_value padded to ten bytes reads false here and true there.
        return shift == 63 ? value | Long.MIN_VALUE : value;
      }
    }
    throw malformed("a number is longer than 10 bytes");
  }

  /**
   * Reads a length and returns where the field ends, checked against the enclosing end. As with a
   * tag, protobuf-java keeps a length's low 32 bits; one that is then negative is refused.
   */
  private int readLengthEnd(int enclosingEnd) {
    int length = (int) readVarint64(enclosingEnd);
    if (length < 0 || length > enclosingEnd - pos) {
      throw malformed("a length runs past the end of the message");
    }
    return pos + length;
  }

  /** A string field; {@code role} is its interning role, or -1 for one not interned (an id). */
  private String readString(int enclosingEnd, int role) throws CharacterCodingException {
    int end = readLengthEnd(enclosingEnd);
    int start = pos;
    pos = end;
    return string(start, end - start, role);
  }

  /** The string of {@code length} bytes at {@code start}, interned in {@code role} unless -1. */
  private String string(int start, int length, int role) throws CharacterCodingException {
    if (role < 0) {
      return StringInterner.decode(in, start, length);
    }
    if (role != ARGUMENT_TYPE) {
      return strings.intern(role, in, start, length);
    }
    if (length == lastStringLength
        && lastStringStart >= 0
        && ByteRanges.equal(in, lastStringStart, in, start, length)) {
      return lastString;
    }
    String string = strings.intern(role, in, start, length);
    lastString = string;
    lastStringStart = start;
    lastStringLength = length;
    return string;
  }

  /**
   * Skips an unknown field of a message {@code depth} messages deep (or, for a field of a group,
   * messages and groups deep).
   */
  private void skipField(int tag, int end, int depth) {
    switch (tag & 7) {
      case VARINT:
        readVarint64(end);
        break;
      case FIXED64:
        skipBytes(8, end);
        break;
      case LENGTH_DELIMITED:
        pos = readLengthEnd(end);
        break;
      case START_GROUP:
        if (depth >= MAX_DEPTH) {
          throw malformed("groups are nested too deeply");
        }
        int endGroup = (tag & ~7) | END_GROUP;
        while (true) {
          if (pos >= end) {
            throw malformed("a group is not closed");
          }
          int inner = readTag(end);
          if (inner == endGroup) {
            break;
          }
          skipField(inner, end, depth + 1);
        }
        break;
      case FIXED32:
        skipBytes(4, end);
        break;
      default:
        throw malformed("a field has the invalid wire type " + (tag & 7));
    }
    if (pos > end) {
      throw malformed("a field runs past the end of its message");
    }
  }

  private void skipBytes(int count, int end) {
    if (end - pos < count) {
      throw malformed("the message ends inside a field");
    }
    pos += count;
  }

  private static MalformedRequestException malformed(String what) {
    return new MalformedRequestException(
        "The request is not a StateFun ToFunction message ("
            + what
            + "); the body must be the protobuf bytes the runtime sends");
  }
}
