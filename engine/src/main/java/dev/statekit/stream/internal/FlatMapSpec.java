package dev.statekit.stream.internal;

import dev.statekit.stream.FlatMapFunction;
import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.Record;
import java.util.Map;

/** flatMap: one value in, any number out. */
public record FlatMapSpec(FlatMapFunction<Object, Object> function, String label)
    implements OperatorSpec {
  @Override
  public OperatorDescription describe() {
    return new OperatorDescription("flatMap", label, Map.of());
  }

  @Override
  public Operator create() {
    return new Operator() {
      private final OutputBuffer buffer = new OutputBuffer();

      @Override
      public void emit(Record<?> record) throws Exception {
        try {
          function.flatMap(record.value(), buffer);
        } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
          // What it collected before it threw is not this record's output, nor the next one's
          // (a queue's batch goes on with the next record on this operator).
          buffer.clear();
          throw new OperatorFailedException(label, record, e);
        }
        buffer.drainTo(record, next);
      }
    };
  }
}
