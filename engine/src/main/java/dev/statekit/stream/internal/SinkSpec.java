package dev.statekit.stream.internal;

import dev.statekit.stream.OperatorDescription;
import dev.statekit.stream.Record;
import dev.statekit.stream.Sink;
import dev.statekit.stream.SinkWriter;
import java.util.Map;

/** The pipeline's sink: each worker of the last stage writes through its own writer. */
public record SinkSpec(Sink<Object> sink) implements OperatorSpec {
  @Override
  public OperatorDescription describe() {
    return new OperatorDescription("sink", sink.name(), Map.of());
  }

  @Override
  public Operator create() {
    return new Operator() {
      private SinkWriter<Object> writer;

      @Override
      public void open(OperatorContext context) throws Exception {
        writer = context.openSideOutput(sink);
      }

      @Override
      @SuppressWarnings("unchecked")
      public void emit(Record<?> record) throws Exception {
        writer.write((Record<Object>) record);
      }

      @Override
      public void watermark(long watermark) {}

      @Override
      public void idle() {}

      @Override
      public void barrier(long checkpointId) {}

      @Override
      public void end() {}
    };
  }
}
