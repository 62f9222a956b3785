package dev.statekit.stream.internal;

import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.Record;
import java.util.Map;
import java.util.function.Predicate;

/** filter: keeps the records whose value passes. */
public record FilterSpec(Predicate<Object> predicate, String label) implements OperatorSpec {
  @Override
  public OperatorDescription describe() {
    return new OperatorDescription("filter", label, Map.of());
  }

  @Override
  public Operator create() {
    return new Operator() {
      @Override
      public void emit(Record<?> record) throws Exception {
        boolean kept;
        try {
          kept = predicate.test(record.value());
        } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
          throw new OperatorFailedException(label, record, e);
        }
        if (kept) {
          next.emit(record);
        }
      }
    };
  }
}
