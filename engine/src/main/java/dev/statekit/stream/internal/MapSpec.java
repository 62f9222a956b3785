package dev.statekit.stream.internal;

import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.Record;
import java.util.Map;
import java.util.function.Function;

/** map: one value in, one value out. */
public record MapSpec(Function<Object, Object> function, String label, String type)
    implements OperatorSpec {
  @Override
  public OperatorDescription describe() {
    return new OperatorDescription(type, label, Map.of());
  }

  @Override
  public Operator create() {
    return new Operator() {
      @Override
      public void emit(Record<?> record) throws Exception {
        Object out;
        try {
          out = function.apply(record.value());
        } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
          throw new OperatorFailedException(label, record, e);
        }
        next.emit(record.withValue(out));
      }
    };
  }
}
