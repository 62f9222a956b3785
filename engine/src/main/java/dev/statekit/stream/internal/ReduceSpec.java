package dev.statekit.stream.internal;

import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.Record;
import dev.statekit.stream.serde.AutoSerdeHolder;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import java.util.Map;
import java.util.function.BinaryOperator;

/** reduce: a running accumulator per key; emits the new accumulator for every record. */
public record ReduceSpec(
    BinaryOperator<Object> function, Serde<Object> serde, Serde<Object> keySerde, String label)
    implements OperatorSpec {
  @Override
  public OperatorDescription describe() {
    return new OperatorDescription("reduce", label, Map.of());
  }

  @Override
  public boolean keyed() {
    return true;
  }

  @Override
  public Operator create() {
    return new Operator() {
      private KeyedStateStore store;
      private ValueState<Object> accumulator;

      @Override
      public void open(OperatorContext context) {
        store = context.openStore(keySerde, AutoSerdeHolder.AUTO);
        accumulator = store.register(StateSpec.value("reduce", serde));
      }

      @Override
      public void prefetch(Object[] keys, int from, int to) {
        Prefetch.keys(store, keys, from, to);
      }

      @Override
      public void emit(Record<?> record) throws Exception {
        emitKeyed(record.key(), record);
      }

      @Override
      public void emitKeyed(Object key, Record<?> record) throws Exception {
        this.next.emit(record.withKeyAndValue(key, add(key, record.value())));
      }

      @Override
      public void emitKeyedParts(
          Object key, String split, long offset, Object value, long timestamp) throws Exception {
        // The output is the record the input would derive: same split, offset and timestamp.
        this.next.emit(Record.at(split, offset, key, add(key, value), timestamp));
      }

      /** Folds {@code value} into the key's accumulator; returns the new accumulator. */
      private Object add(Object key, Object value) {
        store.setCurrentKey(key);
        Object current = accumulator.value();
        Object next = current == null ? value : function.apply(current, value);
        accumulator.update(next);
        return next;
      }
    };
  }
}
