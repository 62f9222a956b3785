package dev.statekit.protocol;

import dev.statekit.invocation.TypedValue;
import java.nio.charset.CharacterCodingException;
import java.util.Arrays;

/**
 * Reads a {@code ToFunction} straight from its bytes into plain values, without building the
 * generated message tree: the hot path of every request. Follows protobuf's parsing rules (fields
 * in any order, unknown fields skipped, a repeated singular field overwrites and a repeated message
 * merges, a field with an unexpected wire type is unknown).
 *
 * <p>A string is checked to be UTF-8 where it comes, as protobuf-java checks every occurrence of a
 * proto3 string, but only its place in the request is kept: it is decoded when it is asked for, and
 * only the last occurrence of a field counts, so a forged request that repeats a name millions of
 * times, or sends millions of distinct names, costs no string until one is asked for.
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

  /** An address as ints: the start and length of its namespace, of its type, of its id. */
  private static final int ADDRESS_PARTS = 6;

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

  /** The target's namespace, type and id, decoded once the request is read; null if none. */
  String[] target;

  // An address being read, as the start and length of its namespace, type and id in the request,
  // each the last non-empty one of its pieces (see readAddress).
  private final int[] targetParts = new int[ADDRESS_PARTS];
  private final int[] callerParts = new int[ADDRESS_PARTS];
  private boolean hasTarget;

  // The states kept: all but those named "", which no function declares (a state's name starts
  // with a letter), so the handler would offer them in vain. Each is kept as where its
  // PersistedValue's length starts and where its name's length starts: the handler compares the
  // name in place (stateNamed) and reads the value again (stateValue) only for a state it takes.
  int stateCount;
  private int[] statePositions = new int[4];
  private int[] stateNamePositions = new int[4];

  // Every invocation is read (the request must be protobuf throughout) and counted, but only those
  // up to the first the handler refuses to run (see RequestDecoding.isRunnable) are kept: the
  // handler refuses the batch there, and no answer depends on what comes after. So a forged batch
  // of millions of empty invocations costs the arrays of one.
  int invocationCount;
  int keptInvocationCount;
  private boolean keepingInvocations;

  // Where the length of each kept invocation with a caller starts (-1 for one without): caller
  // reads it again. Its argument's type, as a range of the request's bytes that argumentType
  // decodes (the range of the invocation before when the bytes are the same: a batch's arguments
  // mostly share one, whose string is then found by the range alone), and its value, as a range
  // that argumentValue copies out. The reader is long-lived: a reference stored into it costs a
  // memory fence in G1's write barrier, an int costs nothing, so an invocation stores ints, and a
  // forged batch of kept invocations costs their slots (21 bytes each) and no strings.
  private int[] callerPositions = new int[4];
  private int[] argumentTypeStarts = new int[4];
  private int[] argumentTypeLengths = new int[4];
  private int[] argumentStarts = new int[4];
  private int[] argumentEnds = new int[4];
  private boolean[] argumentsSet = new boolean[4];

  // The last argument type name, compared in place: a batch's arguments usually share one. Only
  // that role is remembered here (the interner keeps the last string of each role): a string
  // stored into the long-lived reader costs a fence in the write barrier.
  private int lastStringStart = -1;
  private int lastStringLength;
  private String lastString;

  // The TypedValue being read: its type name's range and its value's.
  private boolean valuePresent;
  private int valueStart;
  private int valueEnd;
  private int typeStart;
  private int typeLength;

  // Whether the type name read is known to hold the bytes of the last kept invocation's argument
  // type: the usual case, found by the one comparison that also spares checking it is UTF-8 again.
  private boolean typeIsLastArgumentType;

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
    startValue();
    try {
      while (pos < end) {
        int tag = readTag(end);
        if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
          readTypedValue(readLengthEnd(end));
        } else {
          skipField(tag, end, IN_BATCH_ENTRY);
        }
      }
      return valuePresent
          ? new TypedValue(string(typeStart, typeLength, STATE_TYPE), copy(valueStart, valueEnd))
          : null;
    } catch (CharacterCodingException e) {
      throw malformed("a string field is not valid UTF-8");
    }
  }

  /** The name of state {@code index}, decoded. */
  String stateName(int index) {
    int start = stateNameStart(index);
    return decoded(start, pos - start, STATE_NAME);
  }

  /**
   * Whether state {@code index} is named {@code name}, compared in place: a request's state names
   * need no decoding to be matched with those a function declares (which are ASCII).
   */
  boolean stateNamed(int index, String name) {
    int start = stateNameStart(index);
    int length = pos - start;
    int count = name.length();
    for (int k = 0; k < count; k++) {
      char c = name.charAt(k);
      if (c >= 0x80) {
        return name.equals(decoded(start, length, STATE_NAME));
      }
      // An ASCII character is one byte in UTF-8, and no byte of another character is ASCII.
      if (k >= length || in[start + k] != c) {
        return false;
      }
    }
    return length == count;
  }

  /** The hash {@link #nameHash} gives state {@code index}'s name, computed from its bytes. */
  int stateNameHash(int index) {
    int start = stateNameStart(index);
    int hash = 0;
    for (int k = start; k < pos; k++) {
      hash = 31 * hash + (in[k] & 0xff);
    }
    return hash;
  }

  /**
   * A hash of an ASCII name (as every declared state name is) that {@link #stateNameHash} gives the
   * same name in a request: each character is its one byte in UTF-8.
   */
  static int nameHash(String asciiName) {
    int hash = 0;
    for (int k = 0; k < asciiName.length(); k++) {
      hash = 31 * hash + asciiName.charAt(k);
    }
    return hash;
  }

  /** Where state {@code index}'s name starts; {@code pos} is then where it ends. */
  private int stateNameStart(int index) {
    pos = stateNamePositions[index];
    int end = readLengthEnd(in.length);
    int start = pos;
    pos = end;
    return start;
  }

  /**
   * The caller of invocation {@code index} (namespace, type, id), or {@code null} for a message
   * from an ingress; read again from the request, so only for an invocation the handler runs.
   */
  String[] caller(int index) {
    int position = callerPositions[index];
    if (position < 0) {
      return null;
    }
    pos = position;
    int end = readLengthEnd(in.length);
    Arrays.fill(callerParts, 0);
    try {
      while (pos < end) {
        int tag = readTag(end);
        if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
          readAddress(readLengthEnd(end), callerParts, IN_ENTRY_PART);
        } else {
          skipField(tag, end, IN_BATCH_ENTRY);
        }
      }
      return address(callerParts, CALLER_NAMESPACE);
    } catch (CharacterCodingException e) {
      throw malformed("a string field is not valid UTF-8");
    }
  }

  /**
   * The type name of invocation {@code index}'s argument, interned: a batch's arguments sharing one
   * get the same instance.
   */
  String argumentType(int index) {
    int start = argumentTypeStarts[index];
    int length = argumentTypeLengths[index];
    // The type of the invocation before, in a batch whose arguments share one: no call.
    if (start == lastStringStart && length == lastStringLength) {
      return lastString;
    }
    return decoded(start, length, ARGUMENT_TYPE);
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
    if (callerPositions.length > KEPT_LENGTH) {
      callerPositions = new int[4];
      argumentTypeStarts = new int[4];
      argumentTypeLengths = new int[4];
      argumentStarts = new int[4];
      argumentEnds = new int[4];
      argumentsSet = new boolean[4];
    }
    if (statePositions.length > KEPT_LENGTH) {
      statePositions = new int[4];
      stateNamePositions = new int[4];
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
    hasTarget = false;
    Arrays.fill(targetParts, 0);
    stateCount = 0;
    invocationCount = 0;
    keptInvocationCount = 0;
    keepingInvocations = true;
    lastStringStart = -1;
    lastStringLength = 0;
    lastString = null;
    try {
      readToFunction();
      if (hasTarget) {
        target = address(targetParts, TARGET_NAMESPACE);
      }
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
        readAddress(readLengthEnd(end), targetParts, IN_BATCH_ENTRY);
        hasTarget = true;
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        int position = pos;
        readPersistedValue(readLengthEnd(end), position);
      } else if (tag == ((3 << 3) | LENGTH_DELIMITED)) {
        if (keepingInvocations) {
          int position = pos;
          readInvocation(readLengthEnd(end), position);
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
   * Namespace, type, id; merged into {@code into} (see {@link #targetParts}) as the reference SDK's
   * protobuf (3.7) merges a repeated message: the piece is read whole, a field's last occurrence
   * counting, then its non-empty parts replace those before.
   */
  private void readAddress(int end, int[] into, int depth) throws CharacterCodingException {
    int namespace = 0;
    int namespaceLength = 0;
    int type = 0;
    int typeLength = 0;
    int id = 0;
    int idLength = 0;
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        namespace = readString(end);
        namespaceLength = pos - namespace;
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        type = readString(end);
        typeLength = pos - type;
      } else if (tag == ((3 << 3) | LENGTH_DELIMITED)) {
        id = readString(end);
        idLength = pos - id;
      } else {
        skipField(tag, end, depth);
      }
    }
    if (namespaceLength > 0) {
      into[0] = namespace;
      into[1] = namespaceLength;
    }
    if (typeLength > 0) {
      into[2] = type;
      into[3] = typeLength;
    }
    if (idLength > 0) {
      into[4] = id;
      into[5] = idLength;
    }
  }

  /**
   * The address {@code parts} holds, decoded; its namespace and type interned from {@code role}.
   */
  private String[] address(int[] parts, int namespaceRole) throws CharacterCodingException {
    return new String[] {
      string(parts[0], parts[1], namespaceRole),
      string(parts[2], parts[3], namespaceRole + 1),
      string(parts[4], parts[5], -1)
    };
  }

  /** Reads a state whose length starts at {@code position}, keeping its name and position. */
  private void readPersistedValue(int end, int position) throws CharacterCodingException {
    int namePosition = 0;
    int nameLength = 0;
    startValue();
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        namePosition = pos;
        int name = readString(end);
        nameLength = pos - name;
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        readTypedValue(readLengthEnd(end));
      } else {
        skipField(tag, end, IN_BATCH_ENTRY);
      }
    }
    if (nameLength == 0) {
      return;
    }
    if (stateCount == statePositions.length) {
      int size = grownLength(stateCount, 4, (in.length - pos) / KEPT_STATE_BYTES);
      statePositions = Arrays.copyOf(statePositions, size);
      stateNamePositions = Arrays.copyOf(stateNamePositions, size);
    }
    statePositions[stateCount] = position;
    stateNamePositions[stateCount] = namePosition;
    stateCount++;
  }

  /** Reads an invocation whose length starts at {@code position}, keeping it. */
  private void readInvocation(int end, int position) throws CharacterCodingException {
    boolean hasCaller = false;
    startValue();
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        if (!hasCaller) {
          Arrays.fill(callerParts, 0);
          hasCaller = true;
        }
        readAddress(readLengthEnd(end), callerParts, IN_ENTRY_PART);
      } else if (tag == ((2 << 3) | LENGTH_DELIMITED)) {
        readTypedValue(readLengthEnd(end));
      } else {
        skipField(tag, end, IN_BATCH_ENTRY);
      }
    }
    // An all-empty caller is none, as the reference SDK reads it: a message from an ingress.
    if (hasCaller && callerParts[1] == 0 && callerParts[3] == 0 && callerParts[5] == 0) {
      hasCaller = false;
    }
    int index = keptInvocationCount;
    if (index == callerPositions.length) {
      growInvocations(index);
    }
    callerPositions[index] = hasCaller ? position : -1;
    keepType(index);
    argumentStarts[index] = valueStart;
    argumentEnds[index] = valueEnd;
    argumentsSet[index] = valuePresent;
    keptInvocationCount = index + 1;
    keepingInvocations =
        RequestDecoding.isRunnable(
            in, typeStart, typeLength, valuePresent, hasCaller ? callerParts : null);
  }

  /** Makes room for one more kept invocation than the {@code count} the arrays are full with. */
  private void growInvocations(int count) {
    // Grown fourfold: a batch of ten copies the arrays once, not twice. After this one come the
    // runnable ones the rest of the request can hold, and one more the handler refuses.
    int size = grownLength(count, 4, 1 + (in.length - pos) / RUNNABLE_INVOCATION_BYTES);
    callerPositions = Arrays.copyOf(callerPositions, size);
    argumentTypeStarts = Arrays.copyOf(argumentTypeStarts, size);
    argumentTypeLengths = Arrays.copyOf(argumentTypeLengths, size);
    argumentStarts = Arrays.copyOf(argumentStarts, size);
    argumentEnds = Arrays.copyOf(argumentEnds, size);
    argumentsSet = Arrays.copyOf(argumentsSet, size);
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

  /**
   * Keeps the type just read as invocation {@code index}'s: the range of the invocation before if
   * the bytes are the same (compared in place: the arguments of a batch mostly share one).
   */
  private void keepType(int index) {
    int before = index - 1;
    if (typeIsLastArgumentType
        || (before >= 0
            && argumentTypeLengths[before] == typeLength
            && ByteRanges.equal(in, argumentTypeStarts[before], in, typeStart, typeLength))) {
      argumentTypeStarts[index] = argumentTypeStarts[before];
      argumentTypeLengths[index] = argumentTypeLengths[before];
    } else {
      argumentTypeStarts[index] = typeStart;
      argumentTypeLengths[index] = typeLength;
    }
  }

  private void startValue() {
    valuePresent = false;
    valueStart = 0;
    valueEnd = 0;
    typeStart = 0;
    typeLength = 0;
    typeIsLastArgumentType = false;
  }

  /** The request's bytes from {@code start} to {@code end}, in an array of their own. */
  private byte[] copy(int start, int end) {
    return start == end ? EMPTY : Arrays.copyOfRange(in, start, end);
  }

  /**
   * Typename, has_value, value, into the type name's range and the value's. A repeated TypedValue
   * is merged as the reference SDK's protobuf (3.7) merges one: the piece is read whole, then what
   * it sets to other than the default (a typename, {@code has_value} true, a non-empty value)
   * replaces what came before.
   */
  private void readTypedValue(int end) throws CharacterCodingException {
    if (readUsualTypedValue(end)) {
      return;
    }
    int pieceTypeStart = 0;
    int pieceTypeLength = 0;
    boolean piecePresent = false;
    int pieceStart = 0;
    int pieceEnd = 0;
    while (pos < end) {
      int tag = readTag(end);
      if (tag == ((1 << 3) | LENGTH_DELIMITED)) {
        pieceTypeStart = readString(end);
        pieceTypeLength = pos - pieceTypeStart;
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
    if (pieceTypeLength > 0) {
      typeStart = pieceTypeStart;
      typeLength = pieceTypeLength;
      typeIsLastArgumentType = false;
    }
  }

  /**
   * Reads the typed value if it is laid out as the runtime and every SDK write one with a short
   * name and value: {@code 0A len typename 10 01 1A len value}, nothing else, each length one byte.
   * Those bytes are checked one by one, in place of the general loop's tags and varints, and read
   * (and merged) as the loop would read them.
   *
   * @return whether it was; {@code false}, having read nothing, for any other layout
   */
  private boolean readUsualTypedValue(int end) throws CharacterCodingException {
    byte[] in = this.in;
    int p = pos;
    if (end - p < 6 || in[p] != ((1 << 3) | LENGTH_DELIMITED)) {
      return false;
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
      return false;
    }
    // The bytes of a type name read before were checked then.
    int last = keptInvocationCount - 1;
    boolean known =
        last >= 0
            && argumentTypeLengths[last] == typeLength
            && ByteRanges.equal(in, argumentTypeStarts[last], in, typeStart, typeLength);
    if (!known) {
      StringInterner.checkUtf8(in, typeStart, typeLength);
    }
    if (typeLength > 0) {
      this.typeStart = typeStart;
      this.typeLength = typeLength;
      typeIsLastArgumentType = known;
    }
    valuePresent = true;
    if (q + 4 < end) {
      valueStart = q + 4;
      valueEnd = end;
    }
    pos = end;
    return true;
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

  /**
   * Reads a string field, checking it is UTF-8 as protobuf-java checks each occurrence of a proto3
   * string, without decoding it.
   *
   * @return where it starts; {@code pos} is then where it ends
   */
  private int readString(int enclosingEnd) throws CharacterCodingException {
    int end = readLengthEnd(enclosingEnd);
    int start = pos;
    StringInterner.checkUtf8(in, start, end - start);
    pos = end;
    return start;
  }

  /** {@link #string} of a range read and checked before, which cannot fail. */
  private String decoded(int start, int length, int role) {
    try {
      return string(start, length, role);
    } catch (CharacterCodingException e) {
      throw new IllegalStateException("A string the request reader checked is not UTF-8", e);
    }
  }

  /** The string of {@code length} bytes at {@code start}, interned in {@code role} unless -1. */
  private String string(int start, int length, int role) throws CharacterCodingException {
    if (role < 0) {
      return StringInterner.decode(in, start, length);
    }
    if (role != ARGUMENT_TYPE) {
      return strings.intern(role, in, start, length);
    }
    // The same range again (the batch's arguments share a type), or the same bytes elsewhere.
    if (length == lastStringLength
        && lastStringStart >= 0
        && (start == lastStringStart || ByteRanges.equal(in, lastStringStart, in, start, length))) {
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
