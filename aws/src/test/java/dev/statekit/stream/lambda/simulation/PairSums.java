package dev.statekit.stream.lambda.simulation;

import dev.statekit.egress.EgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * KeySums with each message keyed to two keys ({@code a+b}): a flatMap then keyBy, so one message's
 * keyed records land on two key items, written (and conflicting) apart.
 */
final class PairSums implements Workload {
  private static final dev.statekit.stream.state.StateSpec<
          dev.statekit.stream.state.ValueState<Long>>
      SEEN = dev.statekit.stream.state.StateSpec.value("seen", Serdes.longs());

  private final Source source;
  private final boolean keyedFlaky;

  PairSums(Source source) {
    this(source, false);
  }

  /**
   * {@code keyedFlaky}: a message's second part fails (once) in the keyed function for one message
   * in seven, so the message is handed back after its first part ran.
   */
  PairSums(Source source, boolean keyedFlaky) {
    this.source = source;
    this.keyedFlaky = keyedFlaky;
  }

  @Override
  public String name() {
    return "pair sums on " + source + (keyedFlaky ? ", failing in the keyed stage" : "");
  }

  @Override
  public Source source() {
    return source;
  }

  @Override
  public Pipeline pipeline(EgressSink sink, Duration idleTimeout) {
    if (keyedFlaky) {
      java.util.Set<String> failed = java.util.concurrent.ConcurrentHashMap.newKeySet();
      return Inputs.flaky(Pipeline.from(BatchSource.records()))
          .<String>flatMap(
              (text, out) -> {
                String[] keys = text.split("\\+");
                out.collect(keys[0]);
                out.collect(keys[1] + "?");
              })
          .keyBy(part -> part.replace("?", ""))
          .<String>process(
              (record, context, out) -> {
                if (record.value().endsWith("?")
                    && Math.floorMod(record.position().toString().hashCode(), 7) == 0
                    && failed.add(record.position().toString())) {
                  throw new IllegalStateException("keyed failure of " + record.position());
                }
                dev.statekit.stream.state.ValueState<Long> seen = context.state(SEEN);
                long n = seen.value() == null ? 1 : seen.value() + 1;
                seen.update(n);
                out.collect(record.value().replace("?", "") + "=" + n);
              },
              SEEN)
          .to(EgressOutput.to(sink, TypeName.of("sim", "sums"), Types.stringType()));
    }
    return Inputs.flaky(Pipeline.from(BatchSource.records()))
        .<String>flatMap(
            (text, out) -> {
              for (String key : text.split("\\+")) {
                out.collect(key + "=1");
              }
            })
        .keyBy(sum -> sum.substring(0, sum.indexOf('=')))
        .reduce(PairSums::add, Serdes.string())
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
    List<Input> input = new ArrayList<>();
    int keys = 2 + random.nextInt(6);
    int records = 30 + random.nextInt(200);
    long at = start;
    for (int i = 0; i < records; i++) {
      at += random.nextInt(12_000);
      String a = "k" + (random.nextBoolean() ? 0 : random.nextInt(keys));
      String b;
      do {
        b = "k" + random.nextInt(keys);
      } while (b.equals(a));
      String data = a + "+" + b + (random.nextInt(50) == 0 ? "!" : "");
      input.add(new Input(at, a, data.getBytes(StandardCharsets.UTF_8)));
    }
    return input;
  }

  @Override
  public List<String> expected(List<Input> input) {
    Map<String, Long> counts = new TreeMap<>();
    List<String> expected = new ArrayList<>();
    for (Input in : input) {
      String text = new String(in.data(), StandardCharsets.UTF_8).replace("!", "");
      for (String key : text.split("\\+")) {
        expected.add(key + "=" + counts.merge(key, 1L, Long::sum));
      }
    }
    return expected;
  }
}
