package dev.statekit.invocation;

import dev.statekit.function.Address;
import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.IncompatibleStateException;
import dev.statekit.function.StatefulFunction;
import dev.statekit.function.ValueSpec;
import dev.statekit.function.spi.Payloads;
import java.util.ArrayList;
import java.util.List;

/**
 * One batch of messages for one address: first offer the persisted values the transport has, check
 * {@link #missingValues()}, then {@link #invoke} once per message in order (state is threaded
 * through; a failing message leaves it as it was after the last good one), and finally read the net
 * {@link #mutations()}. Not thread-safe: one batch runs on one thread. Not for users.
 *
 * <p>Expiry needs no bookkeeping here: the transport knows each value's {@link
 * dev.statekit.function.Expiration} from the spec and restarts its clock on write (mutations) or on
 * each batch (after-call values are offered, hence read, on every invocation).
 */
public final class AddressRun {
  private final Address self;
  private final StatefulFunction function;
  private final StateCell[] cells;
  private final CellStorage storage;
  private final EngineContext context;
  private int invocations;
  private final Payloads.Access payloads = Payloads.access();

  AddressRun(Address self, StatefulFunction function, List<ValueSpec<?>> specs) {
    this.self = self;
    this.function = function;
    this.cells = new StateCell[specs.size()];
    for (int i = 0; i < cells.length; i++) {
      cells[i] = new StateCell(specs.get(i));
    }
    this.storage = new CellStorage(self.type(), cells);
    this.context = new EngineContext(self, storage);
  }

  /** The address the batch runs on. */
  public Address self() {
    return self;
  }

  /**
   * Offers the persisted value of {@code stateName} ({@code null}: known but without a value).
   *
   * <p>A name offered again keeps its first value, as statefun-sdk-java reads a request naming a
   * state twice (a runtime never does; a forged request may).
   *
   * @return false if the function does not declare that name (the value is then ignored)
   * @throws IncompatibleStateException if the value's type is not the declared one
   */
  public boolean offer(String stateName, TypedValue value) {
    for (int i = 0; i < cells.length; i++) {
      if (cells[i].spec.name().equals(stateName)) {
        offer(i, value);
        return true;
      }
    }
    return false;
  }

  /**
   * Offers the persisted value of the {@code index}th declared value ({@link #declaredName}), as
   * {@link #offer(String, TypedValue)} does by name.
   *
   * @throws IncompatibleStateException if the value's type is not the declared one
   */
  public void offer(int index, TypedValue value) {
    StateCell cell = cells[index];
    if (cell.provided) {
      return;
    }
    if (value != null && !cell.typeName.equals(value.typeName())) {
      throw new IncompatibleStateException(
          self.type(), cell.spec.name(), cell.typeName, value.typeName());
    }
    cell.provided = true;
    cell.offered(value == null ? null : value.value());
    cell.object = null;
  }

  /** How many values the function declares: see {@link #declaredName}. */
  public int declaredCount() {
    return cells.length;
  }

  /**
   * The name of the {@code index}th value the function declares, in declaration order: a transport
   * can match the names a request sends against these without decoding them.
   */
  public String declaredName(int index) {
    return cells[index].spec.name();
  }

  /**
   * Whether {@link #offer} would take a value for {@code stateName}: the function declares it and
   * none was offered yet. A transport can then skip building the values it would drop.
   */
  public boolean awaits(String stateName) {
    for (StateCell cell : cells) {
      if (cell.spec.name().equals(stateName)) {
        return !cell.provided;
      }
    }
    return false;
  }

  /** Whether {@link #offer(int, TypedValue)} would take a value for the {@code index}th one. */
  public boolean awaits(int index) {
    return !cells[index].provided;
  }

  /** The declared values that were not offered, in declaration order; empty when complete. */
  public List<ValueSpec<?>> missingValues() {
    List<ValueSpec<?>> missing = List.of();
    for (StateCell cell : cells) {
      if (!cell.provided) {
        if (missing.isEmpty()) {
          missing = new ArrayList<>(cells.length);
        }
        missing.add(cell.spec);
      }
    }
    return missing;
  }

  /**
   * Runs the function on the next message of the batch.
   *
   * @param caller the sender, or {@code null} for a message from an ingress
   * @return what the invocation sent
   * @throws FunctionInvocationException if the function threw; its state changes are undone and the
   *     batch can go on with the next message
   */
  public InvocationEffects invoke(Address caller, TypedValue argument) {
    return invoke(caller, argument.typeName(), argument.value());
  }

  /**
   * Runs the function on the next message of the batch, whose argument is {@code value} of type
   * {@code typeName}: as {@link #invoke(Address, TypedValue)}, for a transport that has the parts.
   * The array is handed over, as to a {@link TypedValue}.
   */
  public InvocationEffects invoke(Address caller, String typeName, byte[] value) {
    if (typeName == null || value == null) {
      // The TypedValue overload refused these when it was built; this one must say so itself.
      throw new IllegalArgumentException(
          "A message needs a type name and a value (an empty array for none); got "
              + (typeName == null ? "no type name" : "no value"));
    }
    int index = invocations++;
    InvocationEffects effects = new InvocationEffects();
    context.begin(caller, effects);
    storage.active = true;
    try {
      function.apply(context, payloads.message(self, typeName, value));
      storage.commit();
      return effects;
    } catch (Exception | StackOverflowError | AssertionError | LinkageError e) {
      // The Errors a function's own code brings on (recursion on a deep input, an assert, a class
      // it cannot load) fail its message like an exception: the message's attempts are counted
      // and its dead letter says why, and the batch's other messages go on. Others (out of
      // memory) leave the environment unfit, so the invocation fails whole.
      storage.rollback();
      throw new FunctionInvocationException(self, index, typeName, e);
    } catch (Error e) {
      storage.rollback();
      throw e;
    } finally {
      storage.active = false;
      context.end();
    }
  }

  /**
   * The values as they stand between invocations, by name (values without one left out), for an
   * observer of the runtime: a snapshot, read only when one is registered.
   */
  public java.util.Map<String, TypedValue> currentValues() {
    java.util.Map<String, TypedValue> values = new java.util.LinkedHashMap<>();
    for (StateCell cell : cells) {
      byte[] bytes = cell.bytes();
      if (bytes != null) {
        values.put(cell.spec.name(), new TypedValue(cell.typeName, bytes));
      }
    }
    return values;
  }

  /** The net change of each value the batch wrote or removed, in declaration order. */
  public List<StateMutation> mutations() {
    List<StateMutation> mutations = new ArrayList<>(cells.length);
    for (StateCell cell : cells) {
      if (cell.status == StateCell.MODIFIED) {
        mutations.add(
            StateMutation.modify(cell.spec.name(), new TypedValue(cell.typeName, cell.bytes())));
      } else if (cell.status == StateCell.DELETED) {
        mutations.add(StateMutation.delete(cell.spec.name()));
      }
    }
    return mutations;
  }
}
