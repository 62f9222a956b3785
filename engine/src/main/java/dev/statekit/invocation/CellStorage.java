package dev.statekit.invocation;

import dev.statekit.function.AddressScopedStorage;
import dev.statekit.function.ValueSpec;
import dev.statekit.types.TypeName;
import java.util.Objects;
import java.util.Optional;

/** The storage a function sees during a batch: its declared values, with per-invocation undo. */
final class CellStorage implements AddressScopedStorage {
  private final TypeName function;
  private final StateCell[] cells;
  private final StateCell[] touched;
  private int touchedCount;
  boolean active;

  CellStorage(TypeName function, StateCell[] cells) {
    this.function = function;
    this.cells = cells;
    this.touched = new StateCell[cells.length];
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> Optional<T> get(ValueSpec<T> spec) {
    return Optional.ofNullable((T) cell(spec).read());
  }

  @Override
  public <T> void set(ValueSpec<T> spec, T value) {
    StateCell cell = cell(spec);
    if (value == null) {
      throw new IllegalArgumentException(
          "State '" + spec.name() + "' can't be set to null; use remove(spec) to clear it");
    }
    track(cell);
    cell.write(value);
  }

  @Override
  public <T> void remove(ValueSpec<T> spec) {
    StateCell cell = cell(spec);
    track(cell);
    cell.remove();
  }

  /** Keeps the invocation's writes. */
  void commit() {
    for (int i = 0; i < touchedCount; i++) {
      touched[i].forget();
      touched[i] = null;
    }
    touchedCount = 0;
  }

  /** Undoes the invocation's writes. */
  void rollback() {
    for (int i = 0; i < touchedCount; i++) {
      touched[i].restore();
      touched[i] = null;
    }
    touchedCount = 0;
  }

  private void track(StateCell cell) {
    if (!cell.touched) {
      cell.saveOnce();
      touched[touchedCount++] = cell;
    }
  }

  private StateCell cell(ValueSpec<?> spec) {
    Objects.requireNonNull(spec, "spec");
    if (!active) {
      throw new IllegalStateException(
          "The storage of "
              + function
              + " was used outside an invocation; read and write values before returning");
    }
    // The usual case: the very spec constant the function was registered with.
    for (StateCell cell : cells) {
      if (cell.spec == spec) {
        return cell;
      }
    }
    for (StateCell cell : cells) {
      if (cell.spec.name().equals(spec.name())) {
        if (!cell.typeName.equals(spec.typeName().asString())) {
          throw new IllegalArgumentException(
              "State '"
                  + spec.name()
                  + "' of "
                  + function
                  + " is declared as a "
                  + cell.typeName
                  + " but was used as a "
                  + spec.typeName()
                  + "; use the value spec the function was registered with");
        }
        return cell;
      }
    }
    throw new IllegalArgumentException(
        "State '"
            + spec.name()
            + "' is not declared by "
            + function
            + "; add its value spec when registering the function");
  }
}
