package dev.statekit.stream.serde;

import com.fasterxml.jackson.core.JsonGenerator;
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
 * about a fifth of its calling thread). The bytes are those {@code writeValueAsBytes} writes.
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
    boolean written = false;
    try {
      byte[] bytes = writer.write(value);
      written = true;
      return bytes;
    } finally {
      writer.busy = false;
      // A failed value may leave half of itself in the generator: the next starts afresh.
      if (!written || writer.out.bytes.length > KEPT_BYTES) {
        writers.remove();
      }
    }
  }

  private static final class Writer {
    final Out out = new Out();
    final JsonGenerator generator;

    /** Root values one after another with nothing between them, each taken out on its own. */
    final ObjectWriter values;

    boolean busy;

    Writer(ObjectMapper mapper) throws IOException {
      this.values = mapper.writer().withRootValueSeparator("");
      this.generator = mapper.getFactory().createGenerator(out);
    }

    byte[] write(Object value) throws IOException {
      values.writeValue(generator, value);
      generator.flush();
      byte[] bytes = Arrays.copyOf(out.bytes, out.size);
      out.size = 0;
      return bytes;
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
