package dev.statekit.stream.lambda.simulation;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * A keyed reduce fed by an SQS queue (standard or FIFO) or a DynamoDB stream: each message adds one
 * to its key's sum and emits {@code key=sum}, so, in whatever order messages come, every sum from 1
 * to the key's message count comes out once, and none above it.
 */
final class KeySums implements Workload {
  private final Source source;

  KeySums(Source source) {
    this.source = source;
  }

  @Override
  public String name() {
    return "key sums on " + source;
  }

  @Override
  public Source source() {
    return source;
  }

  @Override
  public Pipeline pipeline(EgressSink sink, Duration idleTimeout) {
    return Inputs.flaky(Pipeline.from(BatchSource.records()))
        .map(key -> key + "=1")
        .keyBy(sum -> sum.substring(0, sum.indexOf('=')))
        .reduce(KeySums::add, Serdes.string())
        .to(EgressOutput.to(sink, TypeName.of("sim", "sums"), Types.stringType()));
  }

  private static String add(String a, String b) {
    int at = a.indexOf('=');
    long sum =
        Long.parseLong(a.substring(at + 1)) + Long.parseLong(b.substring(b.indexOf('=') + 1));
    return a.substring(0, at) + "=" + sum;
  }

  @Override
  public List<Input> input(Random random, long start) {
    return Inputs.keys(random, start, "");
  }

  @Override
  public List<String> expected(List<Input> input) {
    return Inputs.counts(input, "=");
  }
}
