package dev.statekit.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Requests written by hand in every layout protobuf accepts (fields out of order, repeated singular
 * fields and messages, non-minimal varints, unknown fields of each wire type, groups, the usual
 * typed value layout next to others), then some with a byte changed or cut short: the reader, fresh
 * and reused, reads them as the reference SDK's protobuf-java does. Seeded; a failure names its
 * seed.
 */
class WireLayoutFuzzTest {
  private static final String[] NAMES = {
    "",
    "a",
    "t/t",
    "io.statefun.types/string",
    "1234567",
    "12345678",
    "123456789",
    "type.googleapis.com/x.y.Z",
    "é/ü",
    "x".repeat(96),
    "x".repeat(97),
    "n/" + "y".repeat(125),
    "n/" + "y".repeat(126),
    "n/" + "z".repeat(200),
  };

  private final ToFunctionReaderFuzzTest peer = new ToFunctionReaderFuzzTest();

  @Test
  void handWrittenLayoutsAreReadAsTheSdkReadsThem() {
    long base = Long.getLong("statekit.fuzz.seed", 20261203L);
    for (int run = 0; run < 20_000; run++) {
      long seed = base + run;
      Random random = new Random(seed);
      byte[] bytes = toFunction(random);
      check(seed, bytes);
      if (random.nextInt(4) == 0 && bytes.length > 0) {
        byte[] changed = bytes.clone();
        changed[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        check(seed, changed);
        check(seed, Arrays.copyOf(bytes, random.nextInt(bytes.length)));
      }
    }
  }

  @Test
  void threadsSharingOneInternerEachReadTheirOwnRequests() throws Exception {
    long base = Long.getLong("statekit.fuzz.seed", 20261203L) + 5_000_000;
    StringInterner shared = new StringInterner();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long first = base + t * 100_000L;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 5000; i++) {
                    long seed = first + i;
                    byte[] bytes = toFunction(new Random(seed));
                    dev.statekit.protocol.internal.wire.ToFunction expected =
                        ToFunctionReaderFuzzTest.asTheSdkReadsIt(bytes);
                    ToFunctionReader reader;
                    try {
                      reader = ToFunctionReader.borrow(bytes, shared);
                    } catch (MalformedRequestException e) {
                      reader = null;
                    }
                    try {
                      if (expected == null || reader == null) {
                        if ((expected == null) != (reader == null)) {
                          throw new AssertionError("seed " + seed + ": one refused, one accepted");
                        }
                      } else {
                        ToFunctionReaderFuzzTest.compare(expected, reader);
                      }
                    } catch (AssertionError | RuntimeException e) {
                      throw new AssertionError("seed " + seed + ": " + e, e);
                    } finally {
                      if (reader != null) {
                        reader.release();
                      }
                    }
                  }
                  return null;
                }));
      }
      for (java.util.concurrent.Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void check(long seed, byte[] bytes) {
    try {
      peer.agreesWithProtobufJava(bytes);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "seed " + seed + " (" + java.util.HexFormat.of().formatHex(bytes) + "): " + e, e);
    }
  }

  private static byte[] toFunction(Random r) {
    Writer w = new Writer(r);
    int parts = 1 + (r.nextInt(8) == 0 ? 1 : 0);
    for (int i = 0; i < parts; i++) {
      w.maybeUnknown();
      w.message(100, batch(r));
    }
    w.maybeUnknown();
    return w.bytes();
  }

  private static byte[] batch(Random r) {
    Writer w = new Writer(r);
    List<Runnable> fields = new ArrayList<>();
    int targets = r.nextInt(10) == 0 ? 2 : 1;
    for (int i = 0; i < targets; i++) {
      fields.add(() -> w.message(1, address(r)));
    }
    int states = r.nextInt(4);
    for (int i = 0; i < states; i++) {
      fields.add(() -> w.message(2, persistedValue(r)));
    }
    int invocations = r.nextInt(8) == 0 ? r.nextInt(40) : r.nextInt(5);
    for (int i = 0; i < invocations; i++) {
      fields.add(() -> w.message(3, invocation(r)));
    }
    if (r.nextInt(3) > 0) {
      // Usually in the order protobuf writes them.
      fields.forEach(Runnable::run);
    } else {
      java.util.Collections.shuffle(fields, r);
      fields.forEach(Runnable::run);
    }
    w.maybeUnknown();
    return w.bytes();
  }

  private static byte[] address(Random r) {
    Writer w = new Writer(r);
    for (int f = 1; f <= 3; f++) {
      int times = r.nextInt(6) == 0 ? 2 : (r.nextInt(8) == 0 ? 0 : 1);
      for (int i = 0; i < times; i++) {
        w.maybeUnknown();
        w.string(f, pick(r, new String[] {"ns", "fn", "id-1", "", "é", "n".repeat(130)}));
      }
    }
    return w.bytes();
  }

  private static byte[] persistedValue(Random r) {
    Writer w = new Writer(r);
    if (r.nextInt(8) > 0) {
      w.string(1, pick(r, new String[] {"seen", "s", "", "state-" + r.nextInt(3)}));
    }
    int values = r.nextInt(5) == 0 ? 2 : r.nextInt(2);
    for (int i = 0; i < values; i++) {
      w.maybeUnknown();
      w.message(2, typedValue(r));
    }
    return w.bytes();
  }

  private static byte[] invocation(Random r) {
    Writer w = new Writer(r);
    int callers = r.nextInt(6) == 0 ? 2 : r.nextInt(2);
    int arguments = r.nextInt(5) == 0 ? 2 + r.nextInt(2) : 1;
    List<Runnable> fields = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      fields.add(() -> w.message(1, address(r)));
    }
    for (int i = 0; i < arguments; i++) {
      fields.add(() -> w.message(2, typedValue(r)));
    }
    if (r.nextBoolean()) {
      java.util.Collections.shuffle(fields, r);
    }
    fields.forEach(Runnable::run);
    w.maybeUnknown();
    return w.bytes();
  }

  private static byte[] typedValue(Random r) {
    String name = pick(r, NAMES);
    byte[] value = value(r);
    if (r.nextInt(3) == 0
        && name.getBytes(StandardCharsets.UTF_8).length < 128
        && value.length < 128) {
      // The usual layout, byte for byte, sometimes with something after it.
      Writer w = new Writer(r);
      w.raw(0x0A);
      byte[] n = name.getBytes(StandardCharsets.UTF_8);
      w.raw(n.length);
      w.raw(n);
      w.raw(0x10);
      w.raw(0x01);
      w.raw(0x1A);
      w.raw(value.length);
      w.raw(value);
      if (r.nextInt(6) == 0) {
        w.unknown();
      }
      return w.bytes();
    }
    Writer w = new Writer(r);
    List<Runnable> fields = new ArrayList<>();
    if (r.nextInt(6) > 0) {
      fields.add(() -> w.string(1, name));
    }
    if (r.nextInt(5) == 0) {
      fields.add(() -> w.string(1, pick(r, NAMES)));
    }
    if (r.nextInt(6) > 0) {
      long hasValue = pick(r, new long[] {0, 1, 1, 1, 2, 128, -1, 1L << 40});
      fields.add(
          () -> {
            w.tag(2, 0);
            w.varint(hasValue);
          });
    }
    if (r.nextInt(6) > 0) {
      fields.add(() -> w.bytesField(3, value));
    }
    if (r.nextInt(6) == 0) {
      fields.add(() -> w.bytesField(3, value(r)));
    }
    if (r.nextInt(3) == 0) {
      java.util.Collections.shuffle(fields, r);
    }
    for (Runnable field : fields) {
      w.maybeUnknown();
      field.run();
    }
    w.maybeUnknown();
    return w.bytes();
  }

  private static byte[] value(Random r) {
    int length =
        r.nextInt(4) > 0
            ? r.nextInt(12)
            : (int)
                pick(
                    r,
                    new long[] {
                      0, 1, 7, 8, 9, 120, 121, 122, 126, 127, 128, 129, 16383, 16384, 300
                    });
    byte[] value = new byte[length];
    r.nextBytes(value);
    return value;
  }

  private static String pick(Random r, String[] choices) {
    return choices[r.nextInt(choices.length)];
  }

  private static long pick(Random r, long[] choices) {
    return choices[r.nextInt(choices.length)];
  }

  /** Protobuf's wire format with random but legal encoding choices. */
  private static final class Writer {
    private final Random r;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Writer(Random r) {
      this.r = r;
    }

    byte[] bytes() {
      return out.toByteArray();
    }

    void raw(int b) {
      out.write(b);
    }

    void raw(byte[] b) {
      out.write(b, 0, b.length);
    }

    /** A varint, sometimes padded with continuation bytes (legal up to ten bytes). */
    void varint(long value) {
      int size = 1;
      for (long v = value >>> 7; v != 0; v >>>= 7) {
        size++;
      }
      int pad = r.nextInt(10) == 0 ? r.nextInt(10 - size + 1) : 0;
      int written = 0;
      long v = value;
      while (true) {
        boolean last = (v & ~0x7FL) == 0 && written >= size - 1;
        if (last && pad == 0) {
          out.write((int) v);
          return;
        }
        if (last) {
          // The value is done: pad with 0x80s, then a final zero group.
          out.write((int) (v | 0x80));
          for (int i = 1; i < pad; i++) {
            out.write(0x80);
          }
          out.write(0);
          return;
        }
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
        written++;
      }
    }

    void tag(int field, int wireType) {
      varint(((long) field << 3) | wireType);
    }

    void bytesField(int field, byte[] value) {
      tag(field, 2);
      varint(value.length);
      raw(value);
    }

    void string(int field, String value) {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      if (r.nextInt(200) == 0 && bytes.length > 0) {
        bytes = bytes.clone();
        bytes[r.nextInt(bytes.length)] = (byte) 0xC0; // invalid UTF-8: both must refuse
      }
      bytesField(field, bytes);
    }

    void message(int field, byte[] body) {
      bytesField(field, body);
    }

    void maybeUnknown() {
      if (r.nextInt(8) == 0) {
        unknown();
      }
    }

    /** An unknown field of any wire type, a group sometimes holding fields of its own. */
    void unknown() {
      int field = (int) pick(r, new long[] {4, 5, 9, 15, 16, 99, 101, 2047, 2048, 536870911});
      switch (r.nextInt(5)) {
        case 0:
          tag(field, 0);
          varint(r.nextLong());
          break;
        case 1:
          tag(field, 1);
          raw(new byte[8]);
          break;
        case 2:
          bytesField(field, value(r));
          break;
        case 3:
          tag(field, 3);
          if (r.nextBoolean()) {
            tag(1, 2);
            varint(1);
            raw('x');
          }
          tag(field, 4);
          break;
        default:
          tag(field, 5);
          raw(new byte[4]);
      }
    }
  }
}
