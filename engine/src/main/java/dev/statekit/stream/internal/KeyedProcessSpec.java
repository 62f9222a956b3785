package dev.statekit.stream.internal;

import dev.statekit.stream.KeyedContext;
import dev.statekit.stream.KeyedProcessFunction;
import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.Record;
import dev.statekit.stream.serde.AutoSerdeHolder;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.KeyedStateStore;
import dev.statekit.stream.state.StateSpec;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** process on a keyed stream: a function with the key's value, list and map state. */
public record KeyedProcessSpec(
    KeyedProcessFunction<Object, Object, Object> function,
    List<StateSpec<?>> states,
    Serde<Object> keySerde,
    String label)
    implements OperatorSpec {
  @Override
  public OperatorDescription describe() {
    return new OperatorDescription(
        "keyedProcess",
        label,
        Map.of("states", String.join(",", states.stream().map(StateSpec::name).toList())));
  }

  @Override
  public boolean keyed() {
    return true;
  }

  @Override
  public Operator create() {
    return new Operator() {
      private final OutputBuffer buffer = new OutputBuffer();
      private final Map<StateSpec<?>, Object> handles = new IdentityHashMap<>();
      private KeyedStateStore store;
      private final KeyedContext<Object> context =
          new KeyedContext<>() {
            @Override
            public Object key() {
              return store.currentKey();
            }

            @Override
            @SuppressWarnings("unchecked")
            public <S> S state(StateSpec<S> spec) {
              Object handle = handles.get(spec);
              if (handle == null) {
                throw new IllegalArgumentException(
                    spec + " was not declared: pass it to process(function, specs...)");
              }
              return (S) handle;
            }
          };

      @Override
      public void open(OperatorContext operatorContext) {
        store = operatorContext.openStore(keySerde, AutoSerdeHolder.AUTO);
        for (StateSpec<?> spec : states) {
          handles.put(spec, store.register(spec));
        }
      }

      @Override
      public void prefetch(Object[] keys, int from, int to) {
        Prefetch.keys(store, keys, from, to);
      }

      @Override
      @SuppressWarnings("unchecked")
      public void emit(Record<?> record) throws Exception {
        store.setCurrentKey(record.key());
        try {
          function.process((Record<Object>) record, context, buffer);
        } catch (Exception e) {
          buffer.clear();
          throw new OperatorFailedException(label, record, e);
        }
        buffer.drainTo(record, next);
      }
    };
  }
}
