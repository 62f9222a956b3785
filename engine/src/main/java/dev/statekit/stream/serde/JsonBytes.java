package dev.statekit.stream.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Writes values as JSON bytes through one generator per thread, kept from value to value: {@code
 * ObjectMapper.writeValueAsBytes} makes a generator, its buffers, its context and a serializer
 * provider for every value, and that was half of what writing a small value cost (a batch on Lambda
 * writes the accumulator of every window of every key it touches). The bytes, and the failures, are
 * those of {@code writeValueAsBytes}: each value starts from a fresh root ({@link
 * FreshRootGenerator}), what it leaves open is closed as closing a generator closes it, and a value
 * that changes the generator's settings (features, printer, escapes, codec, root separator), fails
 * or closes it leaves the thread's next value a new generator.
 */
final class JsonBytes {
  /** A thread's buffer grown past this is dropped after the value, not kept for the next. */
  private static final int KEPT_BYTES = 64 * 1024;

  private final ObjectMapper mapper;
  private final ObjectWriter values;
  private final FreshRootGenerator.Factory factory;
  private final ThreadLocal<Kept> kept = new ThreadLocal<>();

  JsonBytes(ObjectMapper mapper) {
    this.mapper = mapper;
    this.values = mapper.writer();
    this.factory = new FreshRootGenerator.Factory(mapper.getFactory(), mapper);
  }

  byte[] write(Object value) throws IOException {
    Kept writer = kept.get();
    if (writer != null && writer.busy) {
      // A value written while this thread writes another (a serializer that uses a serde).
      return mapper.writeValueAsBytes(value);
    }
    if (writer == null) {
      FreshRootGenerator generator = factory.create(new Out());
      if (generator == null) {
        return mapper.writeValueAsBytes(value);
      }
      writer = new Kept(generator);
      kept.set(writer);
    }
    writer.busy = true;
    boolean keep = false;
    try {
      byte[] bytes = writer.write(value, values);
      keep = writer.asMade();
      return bytes;
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      // writeValueAsBytes reports a serializer's own IOException (a file it inlines) this way.
      throw JsonMappingException.fromUnexpectedIOE(e);
    } finally {
      writer.busy = false;
      writer.out.size = 0;
      if (keep && writer.out.bytes.length <= KEPT_BYTES) {
        writer.generator.freshRoot(); // drops the value's contexts now, not at the next value
      } else {
        kept.remove();
      }
    }
  }

  /** A thread's generator and buffer, and the generator's settings as made. */
  private static final class Kept {
    final FreshRootGenerator generator;
    final Out out;
    private final int features;
    private final int formatFeatures;
    private final PrettyPrinter printer;
    private final CharacterEscapes escapes;
    private final int highestEscaped;
    private final ObjectCodec codec;
    private final SerializableString separator;
    boolean busy;

    Kept(FreshRootGenerator generator) {
      this.generator = generator;
      this.out = (Out) generator.getOutputTarget();
      this.features = generator.getFeatureMask();
      this.formatFeatures = generator.getFormatFeatures();
      this.printer = generator.getPrettyPrinter();
      this.escapes = generator.getCharacterEscapes();
      this.highestEscaped = generator.getHighestEscapedChar();
      this.codec = generator.getCodec();
      this.separator = generator.rootSeparator();
    }

    byte[] write(Object value, ObjectWriter values) throws IOException {
      generator.freshRoot();
      values.writeValue(generator, value);
      if (!generator.isClosed()) {
        generator.closeOpen();
        generator.flush();
      }
      return Arrays.copyOf(out.bytes, out.size);
    }

    /** Whether the generator is as made: open, and with the settings it was made with. */
    boolean asMade() {
      return !generator.isClosed()
          && generator.getFeatureMask() == features
          && generator.getFormatFeatures() == formatFeatures
          && generator.getPrettyPrinter() == printer
          && generator.getCharacterEscapes() == escapes
          && generator.getHighestEscapedChar() == highestEscaped
          && generator.getCodec() == codec
          && generator.rootSeparator() == separator;
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
