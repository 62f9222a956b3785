package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A key's pending message kept by a format-2 version names its output by index (#3); this
 * deployment has one output: it lacks that output just as it lacks a renamed egress. The message
 * should go back alone like a renamed egress's, not fail the whole batch.
 */
class GoneLegacyOutputTest {
  private static final String QUEUE = "orders-queue";
  private static final StateSpec<ValueState<Long>> SEEN = StateSpec.value("seen", Serdes.longs());
  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore memory = new InMemoryBatchStore(clock);
  private final AtomicReference<String[]> scope = new AtomicReference<>();
  private final BatchStore store =
      (BatchStore)
          Proxy.newProxyInstance(
              BatchStore.class.getClassLoader(),
              new Class<?>[] {BatchStore.class},
              (proxy, method, args) -> {
                if (method.getName().equals("writeKeys")) {
                  scope.set(new String[] {(String) args[0], (String) args[1]});
                }
                try {
                  return method.invoke(memory, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                  throw e.getCause();
                }
              });
  private final CollectingEgressSink output = new CollectingEgressSink();

  private BatchPipeline deploy() {
    Pipeline plan =
        Pipeline.from(BatchSource.records())
            .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
            .keyBy(parts -> parts[0])
            .<String>process(
                (record, context, out) -> {
                  ValueState<Long> seen = context.state(SEEN);
                  long count = seen.value() == null ? 1 : seen.value() + 1;
                  seen.update(count);
                  out.collect(record.value()[0] + ":" + count);
                },
                SEEN)
            .to(EgressOutput.to(output, TypeName.of("test", "counts"), Types.stringType()));
    BatchPipeline pipeline =
        BatchPipeline.builder("legacy", plan)
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .build();
    pipeline.registerSplits(List.of(QUEUE));
    return pipeline;
  }

  private SourceBatch queue(String... messages) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (String message : messages) {
      String[] idAndBody = message.split("=", 2);
      batch.add(idAndBody[0], clock.millis(), idAndBody[1].getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }

  /** Format 2: message m pending, one output of output index 3. */
  private byte[] formatTwoPendingAtIndex3() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(2);
    out.writeInt(0);
    out.writeInt(0);
    out.writeInt(0);
    out.writeInt(1);
    out.writeUTF(QUEUE);
    out.writeUTF("m");
    out.writeLong(clock.millis());
    out.writeInt(1);
    out.writeShort(3); // format 2: the output's index in the plan
    out.writeUTF("legacy/" + QUEUE + "/m/0");
    out.writeUTF("k");
    out.writeBoolean(false);
    out.writeInt(3);
    out.write("k:1".getBytes(StandardCharsets.UTF_8));
    return bytes.toByteArray();
  }

  @Test
  void aPendingFormatTwoOutputOfAnIndexTheDeploymentLacksSendsTheMessageBackAlone()
      throws IOException {
    assertTrue(deploy().process(queue("m0=k,x")).succeeded());
    KeyItem written = memory.readKeys(scope.get()[0], scope.get()[1], List.of("k")).get("k");
    memory.writeKeys(
        scope.get()[0],
        scope.get()[1],
        List.of(
            new KeyWrite("k", written.version(), written.state(), formatTwoPendingAtIndex3(), 0)));

    Object result;
    try {
      result = deploy().process(queue("m=k,a", "n=k,b", "o=j,c"));
    } catch (RuntimeException e) {
      result = e;
    }
    assertTrue(
        result instanceof BatchResult r && r.failedOffsets().equals(List.of("m")),
        "expected only m back, got " + result);
  }
}
