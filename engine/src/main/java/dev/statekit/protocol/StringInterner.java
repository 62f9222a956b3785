package dev.statekit.protocol;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes UTF-8 strings from request bytes, reusing the {@code String} of a recent identical byte
 * sequence: type names, namespaces and state names repeat in every request, and a reused string
 * costs neither decoding nor hashing again. A fixed table of slots, overwritten on collision, so
 * memory stays bounded whatever arrives. Safe to share between threads: a slot holds an immutable
 * entry, and a lost race only costs a decode.
 */
final class StringInterner {
  private static final int SLOTS = 512;
  private static final int MAX_INTERNED_LENGTH = 96;

  /**
   * Roles a string plays in a request (namespace, type, state name, ...), see {@link #intern(int,
   * byte[], int, int)}.
   */
  static final int ROLES = 8;

  private final Entry[] slots = new Entry[SLOTS];

  /**
   * The last string seen in each role. The same role nearly always holds the same bytes from one
   * request to the next, and comparing them is cheaper than hashing them.
   */
  private final Entry[] recent = new Entry[ROLES];

  /**
   * The string of {@code length} bytes at {@code offset}, found by the last string of the same
   * {@code role} before the table is asked.
   *
   * @throws CharacterCodingException if they are not valid UTF-8
   */
  String intern(int role, byte[] bytes, int offset, int length) throws CharacterCodingException {
    Entry last = recent[role];
    if (last != null
        && last.bytes.length == length
        && ByteRanges.equal(last.bytes, 0, bytes, offset, length)) {
      return last.value;
    }
    if (length == 0 || length > MAX_INTERNED_LENGTH) {
      return intern(bytes, offset, length);
    }
    Entry entry = entry(bytes, offset, length);
    recent[role] = entry;
    return entry.value;
  }

  /**
   * The string of {@code length} bytes at {@code offset}.
   *
   * @throws CharacterCodingException if they are not valid UTF-8
   */
  String intern(byte[] bytes, int offset, int length) throws CharacterCodingException {
    if (length == 0) {
      return "";
    }
    if (length > MAX_INTERNED_LENGTH) {
      return decode(bytes, offset, length);
    }
    return entry(bytes, offset, length).value;
  }

  private Entry entry(byte[] bytes, int offset, int length) throws CharacterCodingException {
    int hash = length;
    for (int i = offset, end = offset + length; i < end; i++) {
      hash = 31 * hash + bytes[i];
    }
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    Entry entry = slots[slot];
    if (entry != null
        && entry.bytes.length == length
        && ByteRanges.equal(entry.bytes, 0, bytes, offset, length)) {
      return entry;
    }
    entry =
        new Entry(
            Arrays.copyOfRange(bytes, offset, offset + length), decode(bytes, offset, length));
    slots[slot] = entry;
    return entry;
  }

  /**
   * Checks the bytes are strict UTF-8, as {@link #decode} does, without decoding them.
   *
   * @throws CharacterCodingException if they are not
   */
  static void checkUtf8(byte[] bytes, int offset, int length) throws CharacterCodingException {
    if (!StrictUtf8.isWellFormed(bytes, offset, length)) {
      throw new CharacterCodingException();
    }
  }

  /**
   * Strict UTF-8, as protobuf requires of proto3 strings. Checked first, then decoded by {@code
   * String}, which decodes well-formed bytes as a strict decoder does and allocates no decoder.
   */
  static String decode(byte[] bytes, int offset, int length) throws CharacterCodingException {
    for (int i = offset, end = offset + length; i < end; i++) {
      if (bytes[i] < 0) {
        checkUtf8(bytes, i, end - i);
        return new String(bytes, offset, length, StandardCharsets.UTF_8);
      }
    }
    return new String(bytes, offset, length, StandardCharsets.US_ASCII);
  }

  private static final class Entry {
    final byte[] bytes;
    final String value;

    Entry(byte[] bytes, String value) {
      this.bytes = bytes;
      this.value = value;
    }
  }
}
