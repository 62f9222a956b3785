package dev.statekit.types;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Values written as UTF-8 JSON by Jackson: records, POJOs, collections. The reader and writer are
 * made on the first value, not with the type: Jackson introspects the Java type when they are made,
 * and a registry declares every type its functions might use while a cold start's first payload
 * uses few (or none, for a StateFun request that only carries strings).
 */
final class JsonType<T> implements Type<T> {
  private final TypeName typeName;
  private final Supplier<ObjectMapper> mapper;
  private final Function<ObjectMapper, JavaType> javaType;
  private final String declaredName;
  private volatile Codec codec;

  /**
   * Every JSON type made, weakly: {@link #prepareAll} makes their codecs before a SnapStart
   * snapshot, so a restored environment does not introspect on its first value.
   */
  private static final Queue<WeakReference<JsonType<?>>> MADE = new ConcurrentLinkedQueue<>();

  private static final AtomicInteger SINCE_PURGE = new AtomicInteger();

  /** Jackson's reader and writer for the type, and its canonical name. */
  private record Codec(ObjectReader reader, ObjectWriter writer, String javaTypeName) {}

  JsonType(TypeName typeName, JavaType javaType, ObjectMapper mapper) {
    this(typeName, () -> mapper, m -> javaType, javaType.toCanonical());
  }

  /**
   * A type whose mapper (possibly not built yet) and Java type are asked for with the first value.
   */
  JsonType(
      TypeName typeName,
      Supplier<ObjectMapper> mapper,
      Function<ObjectMapper, JavaType> javaType,
      String declaredName) {
    this.typeName = typeName;
    this.mapper = mapper;
    this.javaType = javaType;
    this.declaredName = declaredName;
    MADE.add(new WeakReference<>(this));
    if (SINCE_PURGE.incrementAndGet() % 1024 == 0) {
      // Types made per call (not as constants) must not pile up as cleared references.
      MADE.removeIf(ref -> ref.get() == null);
    }
  }

  /** Makes the reader and writer of every JSON type still in use that has none yet. */
  static void prepareAll() {
    for (Iterator<WeakReference<JsonType<?>>> it = MADE.iterator(); it.hasNext(); ) {
      JsonType<?> type = it.next().get();
      if (type == null) {
        it.remove();
      } else {
        type.codec();
      }
    }
  }

  private Codec codec() {
    Codec made = codec;
    if (made == null) {
      // Two threads may both make one; they are equal, and Jackson's readers are thread-safe.
      ObjectMapper m = mapper.get();
      JavaType type = javaType.apply(m);
      made = new Codec(m.readerFor(type), m.writerFor(type), type.toCanonical());
      codec = made;
    }
    return made;
  }

  @Override
  public TypeName typeName() {
    return typeName;
  }

  @Override
  public byte[] serialize(T value) {
    Codec c = codec();
    try {
      return c.writer().writeValueAsBytes(value);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Jackson could not write a " + c.javaTypeName() + " as JSON: " + e.getMessage(), e);
    }
  }

  @Override
  public T deserialize(byte[] bytes) {
    Codec c = codec();
    try {
      return c.reader().readValue(bytes);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "The bytes of a "
              + typeName
              + " value are not JSON for "
              + c.javaTypeName()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public String toString() {
    Codec c = codec;
    return typeName + " (JSON " + (c == null ? declaredName : c.javaTypeName()) + ")";
  }
}
