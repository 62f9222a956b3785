package dev.statekit.types;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;

/** Values written as UTF-8 JSON by Jackson: records, POJOs, collections. */
final class JsonType<T> implements Type<T> {
  private final TypeName typeName;
  private final ObjectReader reader;
  private final ObjectWriter writer;
  private final String javaTypeName;

  JsonType(TypeName typeName, JavaType javaType, ObjectMapper mapper) {
    this.typeName = typeName;
    this.reader = mapper.readerFor(javaType);
    this.writer = mapper.writerFor(javaType);
    this.javaTypeName = javaType.toCanonical();
  }

  @Override
  public TypeName typeName() {
    return typeName;
  }

  @Override
  public byte[] serialize(T value) {
    try {
      return writer.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Jackson could not write a " + javaTypeName + " as JSON: " + e.getMessage(), e);
    }
  }

  @Override
  public T deserialize(byte[] bytes) {
    try {
      return reader.readValue(bytes);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "The bytes of a "
              + typeName
              + " value are not JSON for "
              + javaTypeName
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public String toString() {
    return typeName + " (JSON " + javaTypeName + ")";
  }
}
