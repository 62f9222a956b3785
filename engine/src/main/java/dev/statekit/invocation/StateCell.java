package dev.statekit.invocation;

import dev.statekit.function.ValueSpec;
import dev.statekit.types.Type;
import dev.statekit.types.Types;

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

  /**
   * StateKit's own scalar and string types cannot fail to serialize and always give the same bytes:
   * a write of one keeps only the object, serialized once when the batch's mutations are read (a
   * batch of ten writes serializes once, not ten times).
   */
  private final boolean deferred;

  boolean provided;
  byte[] bytes;
  Object object;
  byte status = UNMODIFIED;
  // The object was written and its bytes are not made yet.
  private boolean pending;

  boolean touched;
  private byte[] savedBytes;
  private Object savedObject;
  private byte savedStatus;
  private boolean savedPending;

  @SuppressWarnings("unchecked")
  StateCell(ValueSpec<?> spec) {
    this.spec = (ValueSpec<Object>) spec;
    this.type = this.spec.type();
    this.typeName = spec.typeName().asString();
    this.immutable = type.immutableValues();
    this.deferred = isBuiltIn(type);
  }

  private static boolean isBuiltIn(Type<?> type) {
    return type == Types.integerType()
        || type == Types.longType()
        || type == Types.stringType()
        || type == Types.booleanType()
        || type == Types.doubleType()
        || type == Types.floatType();
  }

  /** The value the transport has, before the batch's first invocation. */
  void offered(byte[] value) {
    bytes = value;
    pending = false;
  }

  /** The value's bytes as they stand; {@code null} if it has none. */
  byte[] bytes() {
    if (pending) {
      bytes = type.serialize(object);
      pending = false;
    }
    return bytes;
  }

  Object read() {
    if (pending) {
      return object;
    }
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
      savedPending = pending;
    }
  }

  void write(Object value) {
    if (deferred) {
      object = value;
      bytes = null;
      pending = true;
      status = MODIFIED;
      return;
    }
    bytes = type.serialize(value);
    if (bytes == null) {
      throw new IllegalStateException(
          "The type " + typeName + " serialized a value of state '" + spec.name() + "' to null");
    }
    object = immutable ? value : null;
    status = MODIFIED;
  }

  void remove() {
    pending = false;
    bytes = null;
    object = null;
    status = DELETED;
  }

  void restore() {
    bytes = savedBytes;
    object = savedObject;
    status = savedStatus;
    pending = savedPending;
    forget();
  }

  void forget() {
    touched = false;
    savedBytes = null;
    savedObject = null;
  }
}
