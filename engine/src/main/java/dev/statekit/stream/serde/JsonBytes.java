package dev.statekit.stream.serde;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Writes values as JSON bytes through one generator per thread, kept from value to value. {@code
 * ObjectMapper.writeValueAsBytes} makes a generator, its buffers, its context and a serializer
 * provider for every value, and that was most of what writing a small value cost: a batch on Lambda
 * writes the accumulator of every window of every key it touches (the fraud check's JSON states:
 * about a fifth of its calling thread). The bytes are those {@code writeValueAsBytes} writes: a
 * value that leaves the generator other than it found it (a structure open, a feature turned on,
 * more than one root value) is written alone, and the thread's next value gets a new generator.
 */
final class JsonBytes {
  /** A thread's buffer grown past this is dropped after the value, not kept for the next. */
  private static final int KEPT_BYTES = 64 * 1024;

  private final ObjectMapper mapper;
  private final ThreadLocal<Writer> writers = new ThreadLocal<>();

  JsonBytes(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  byte[] write(Object value) throws IOException {
    Writer writer = writers.get();
    if (writer != null && writer.busy) {
      // A value written while this thread writes another (a serializer that uses a serde).
      return mapper.writeValueAsBytes(value);
    }
    if (writer == null) {
      writer = new Writer(mapper);
      writers.set(writer);
    }
    writer.busy = true;
    byte[] bytes = null;
    try {
      bytes = writer.write(value);
    } catch (IOException | RuntimeException e) {
      // Written alone below: it fails there as it would have (or, if the kept generator was the
      // trouble, comes out right).
    } finally {
      writer.busy = false;
      if (bytes == null || writer.spoiled || writer.out.bytes.length > KEPT_BYTES) {
        writers.remove();
      }
    }
    return bytes != null ? bytes : mapper.writeValueAsBytes(value);
  }

  private static final class Writer {
    final Out out = new Out();
    final JsonGenerator generator;

    /** Root values one after another with nothing between them, each taken out on its own. */
    final ObjectWriter values;

    /** The generator's settings as made: a value's serializer may change them. */
    private final int features;

    private final int formatFeatures;
    private final PrettyPrinter printer;
    private final CharacterEscapes escapes;
    private final int highestEscaped;
    private final ObjectCodec codec;

    boolean busy;

    /** The last value changed the generator: the next one needs a new one. */
    boolean spoiled;

    Writer(ObjectMapper mapper) throws IOException {
      this.values = mapper.writer().withRootValueSeparator("");
      this.generator = mapper.getFactory().createGenerator(out);
      this.features = generator.getFeatureMask();
      this.formatFeatures = generator.getFormatFeatures();
      this.printer = generator.getPrettyPrinter();
      this.escapes = generator.getCharacterEscapes();
      this.highestEscaped = generator.getHighestEscapedChar();
      this.codec = generator.getCodec();
    }

    /**
     * The value's bytes, or null if it did not end as one whole root value (a structure left open,
     * which closing a generator closes; two root values, which a fresh generator separates; a
     * closed generator): such a value is written alone. A value that changed the generator's
     * settings wrote its own bytes under them, as alone, but {@link #spoiled} the generator.
     */
    byte[] write(Object value) throws IOException {
      int rootValues = generator.getOutputContext().getEntryCount();
      values.writeValue(generator, value);
      generator.flush();
      JsonStreamContext context = generator.getOutputContext();
      boolean whole =
          !generator.isClosed() && context.inRoot() && context.getEntryCount() == rootValues + 1;
      spoiled = !whole || !asMade();
      generator.assignCurrentValue(null); // not kept alive until the next value
      if (!whole) {
        return null;
      }
      byte[] bytes = Arrays.copyOf(out.bytes, out.size);
      out.size = 0;
      return bytes;
    }

    private boolean asMade() {
      return generator.getFeatureMask() == features
          && generator.getFormatFeatures() == formatFeatures
          && generator.getPrettyPrinter() == printer
          && generator.getCharacterEscapes() == escapes
          && generator.getHighestEscapedChar() == highestEscaped
          && generator.getCodec() == codec;
    }
  }

  /** An unlocked byte sink (a {@code ByteArrayOutputStream} locks on every write). */
  private static final class Out extends OutputStream {
    byte[] bytes = new byte[256];
    int size;

    @Override
    public void write(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, bytes, size, len);
      size += len;
    }

    private void ensure(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
      }
    }
  }
}
