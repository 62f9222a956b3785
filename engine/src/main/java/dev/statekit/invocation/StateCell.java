package dev.statekit.invocation;

import dev.statekit.function.ValueSpec;
import dev.statekit.types.Type;

/**
 * One declared value during a batch: the value as it stands, and a copy of it from before the
 * running invocation first wrote it, so a failing invocation leaves no trace.
 */
final class StateCell {
  static final byte UNMODIFIED = 0;
  static final byte MODIFIED = 1;
  static final byte DELETED = 2;

  final ValueSpec<Object> spec;
  final Type<Object> type;
  final String typeName;
  final boolean immutable;

  boolean provided;
  byte[] bytes;
  Object object;
  byte status = UNMODIFIED;

  boolean touched;
  private byte[] savedBytes;
  private Object savedObject;
  private byte savedStatus;

  @SuppressWarnings("unchecked")
  StateCell(ValueSpec<?> spec) {
    this.spec = (ValueSpec<Object>) spec;
    this.type = this.spec.type();
    this.typeName = spec.typeName().asString();
    this.immutable = type.immutableValues();
  }

  Object read() {
    if (bytes == null) {
      return null;
    }
    if (!immutable) {
      // A mutable value is read afresh, so changing it without set() changes nothing.
      return type.deserialize(bytes);
    }
    if (object == null) {
      object = type.deserialize(bytes);
    }
    return object;
  }

  /** Remembers the value as it was before the running invocation changed it. */
  void saveOnce() {
    if (!touched) {
      touched = true;
      savedBytes = bytes;
      savedObject = object;
      savedStatus = status;
    }
  }

  void write(Object value) {
    bytes = type.serialize(value);
    if (bytes == null) {
      throw new IllegalStateException(
          "The type " + typeName + " serialized a value of state '" + spec.name() + "' to null");
    }
    object = immutable ? value : null;
    status = MODIFIED;
  }

  void remove() {
    bytes = null;
    object = null;
    status = DELETED;
  }

  void restore() {
    bytes = savedBytes;
    object = savedObject;
    status = savedStatus;
    forget();
  }

  void forget() {
    touched = false;
    savedBytes = null;
    savedObject = null;
  }
}
