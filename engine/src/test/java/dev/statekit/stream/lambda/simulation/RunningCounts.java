package dev.statekit.stream.lambda.simulation;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * Per-record outputs of keyed state on Kinesis: each record of a key (partition key) counts it and
 * emits {@code key#n}, so every n from 1 to the key's record count comes out once.
 */
final class RunningCounts implements Workload {
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());

  @Override
  public String name() {
    return "running counts on Kinesis";
  }

  @Override
  public Source source() {
    return Source.KINESIS;
  }

  @Override
  public Pipeline pipeline(EgressSink sink, Duration idleTimeout) {
    return Inputs.flaky(Pipeline.from(BatchSource.records()))
        .keyBy(key -> key)
        .<String>process(
            (record, context, out) -> {
              ValueState<Long> seen = context.state(SEEN);
              long n = seen.value() == null ? 1 : seen.value() + 1;
              seen.update(n);
              out.collect(record.value() + "#" + n);
            },
            SEEN)
        .to(EgressOutput.to(sink, TypeName.of("sim", "running"), Types.stringType()));
  }

  @Override
  public boolean perRecord() {
    return true;
  }

  @Override
  public List<Input> input(Random random, long start) {
    return Inputs.keys(random, start, "");
  }

  @Override
  public List<String> expected(List<Input> input) {
    return Inputs.counts(input, "#");
  }
}
