package dev.statekit.stream.serde;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.DupDetector;
import com.fasterxml.jackson.core.json.JsonWriteContext;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A JSON generator that writes one value after another, each as a fresh generator writes its first
 * and only value: before each, {@link #freshRoot} forgets every value written so far (the root
 * context's count, which a serializer may read and which decides whether a root separator comes
 * first, and the child contexts holding the last field names), and {@link #closeOpen} closes what a
 * value left open as closing a generator does.
 */
final class FreshRootGenerator extends UTF8JsonGenerator {
  private FreshRootGenerator(
      IOContext context, int features, ObjectCodec codec, OutputStream out, char quote) {
    super(context, features, codec, out, quote);
  }

  /** The next value is written as a fresh generator's first. */
  void freshRoot() {
    _writeContext =
        JsonWriteContext.createRootContext(
            Feature.STRICT_DUPLICATE_DETECTION.enabledIn(_features)
                ? DupDetector.rootDetector(this)
                : null);
  }

  /** Ends the arrays and objects a value left open, as {@link #close} does. */
  void closeOpen() throws IOException {
    if (!isEnabled(Feature.AUTO_CLOSE_JSON_CONTENT)) {
      return;
    }
    while (true) {
      JsonStreamContext context = getOutputContext();
      if (context.inArray()) {
        writeEndArray();
      } else if (context.inObject()) {
        writeEndObject();
      } else {
        return;
      }
    }
  }

  SerializableString rootSeparator() {
    return _rootValueSeparator;
  }

  /** Makes these generators with the settings of the factory it copies. */
  static final class Factory extends JsonFactory {
    private static final long serialVersionUID = 1L;

    Factory(JsonFactory source, ObjectCodec codec) {
      super(source, codec);
    }

    /**
     * A generator writing to {@code out}, or null where the factory decorates its outputs or
     * generators (a decorator may hold state of its own from value to value).
     */
    FreshRootGenerator create(OutputStream out) throws IOException {
      if (_outputDecorator != null
          || (_generatorDecorators != null && !_generatorDecorators.isEmpty())) {
        return null;
      }
      JsonGenerator made = createGenerator(out);
      return made instanceof FreshRootGenerator generator ? generator : null;
    }

    @Override
    protected JsonGenerator _createUTF8Generator(OutputStream out, IOContext context) {
      FreshRootGenerator generator =
          new FreshRootGenerator(context, _generatorFeatures, _objectCodec, out, _quoteChar);
      if (_maximumNonEscapedChar > 0) {
        generator.setHighestNonEscapedChar(_maximumNonEscapedChar);
      }
      if (_characterEscapes != null) {
        generator.setCharacterEscapes(_characterEscapes);
      }
      if (_rootValueSeparator != DEFAULT_ROOT_VALUE_SEPARATOR) {
        generator.setRootValueSeparator(_rootValueSeparator);
      }
      return _decorate(generator);
    }
  }
}
