package dev.statekit.stream.internal;

import dev.statekit.stream.DeadLetter;
import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.ProcessFunction;
import dev.statekit.stream.Record;
import dev.statekit.stream.SinkWriter;
import java.util.Map;

/** process: a function that may fail, and what to do when it does. */
public record ProcessSpec(
    ProcessFunction<Object, Object> function, FailurePolicy<Object> policy, String label)
    implements OperatorSpec {
  @Override
  public OperatorDescription describe() {
    return new OperatorDescription("process", label, Map.of("on_failure", policy.toString()));
  }

  @Override
  public Operator create() {
    return new Operator() {
      private final OutputBuffer buffer = new OutputBuffer();
      private SinkWriter<DeadLetter<Object>> deadLetters;
      private TaskMetrics metrics;

      @Override
      public void open(OperatorContext context) throws Exception {
        metrics = context.metrics();
        if (policy.kind() == FailurePolicy.Kind.DEAD_LETTER) {
          deadLetters = context.openSideOutput(policy.deadLetters());
        }
      }

      @Override
      @SuppressWarnings("unchecked")
      public void emit(Record<?> record) throws Exception {
        try {
          function.process((Record<Object>) record, buffer);
        } catch (Exception | StackOverflowError | LinkageError | AssertionError e) {
          buffer.clear();
          switch (policy.kind()) {
            case DROP -> metrics.dropped++;
            case DEAD_LETTER -> {
              metrics.deadLettered++;
              deadLetters.write(
                  record.withValue(new DeadLetter<>((Record<Object>) record, e, label)));
            }
            case FAIL -> throw new OperatorFailedException(label, record, e);
          }
          return;
        }
        buffer.drainTo(record, next);
      }
    };
  }
}
